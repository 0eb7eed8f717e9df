#include "tools/common/args.hpp"

#include <algorithm>

#include "common/strings.hpp"

namespace scr::tools {
namespace {

const OptionSpec* find_spec(std::span<const OptionSpec> specs, std::string_view name) {
  for (const auto& s : specs)
    if (s.name == name || (!s.short_name.empty() && s.short_name == name)) return &s;
  return nullptr;
}

std::string spec_label(const OptionSpec& s) {
  std::string label = s.short_name.empty() ? "    " : std::string(s.short_name) + ", ";
  label += s.name;
  if (s.kind == OptionSpec::value) label += " " + std::string(s.value_name);
  if (s.kind == OptionSpec::optional_value) label += "[=" + std::string(s.value_name) + "]";
  return label;
}

bool any_short(std::span<const OptionSpec> specs) {
  return std::any_of(specs.begin(), specs.end(), [](const auto& s) { return !s.short_name.empty(); });
}

}  // namespace

bool Args::has(std::string_view name) const {
  return std::any_of(given_.begin(), given_.end(), [&](const auto& g) { return g.first == name; });
}

std::optional<std::string> Args::value(std::string_view name) const {
  for (auto it = given_.rbegin(); it != given_.rend(); ++it)
    if (it->first == name) return it->second.empty() ? std::nullopt : std::optional(it->second);
  return std::nullopt;
}

Result<Args> parse_args(std::span<const OptionSpec> specs, int argc, const char* const* argv,
                        bool stop_at_positional) {
  Args out;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    if (word == "--") {
      out.separator_ = true;
      for (++i; i < argc; ++i) out.positional_.emplace_back(argv[i]);
      break;
    }
    if (word.size() < 2 || word[0] != '-') {
      if (stop_at_positional) {
        for (; i < argc; ++i) out.positional_.emplace_back(argv[i]);
        break;
      }
      out.positional_.push_back(word);
      continue;
    }
    std::string name = word;
    std::optional<std::string> inline_value;
    if (str::starts_with(word, "--")) {
      if (auto eq = word.find('='); eq != std::string::npos) {
        name = word.substr(0, eq);
        inline_value = word.substr(eq + 1);
      }
    } else if (word.size() > 2) {
      // "-c1" (a value attached) or "-lv" (flags bundled).
      name = word.substr(0, 2);
      const OptionSpec* first = find_spec(specs, name);
      if (first && first->kind == OptionSpec::value) {
        inline_value = word.substr(2);
      } else if (first) {
        // Bundled flags; the last letter may take a value, attached or the
        // next word ("-lp DIR"), as getopt allows.
        for (size_t k = 1; k < word.size(); ++k) {
          const OptionSpec* f = find_spec(specs, std::string("-") + word[k]);
          if (!f) return Error(Errc::invalid_argument, "unknown option '-" + std::string(1, word[k]) +
                                                           "' in '" + word + "'");
          if (f->kind != OptionSpec::value) {
            out.given_.emplace_back(std::string(f->name), "");
            continue;
          }
          std::string v = word.substr(k + 1);
          if (v.empty() && i + 1 < argc) v = argv[++i];
          if (v.empty())
            return Error(Errc::invalid_argument, "-" + std::string(1, word[k]) + " needs a value");
          out.given_.emplace_back(std::string(f->name), v);
          break;
        }
        continue;
      }
    }
    const OptionSpec* spec = find_spec(specs, name);
    if (!spec) return Error(Errc::invalid_argument, "unknown option '" + name + "'");
    std::string value;
    switch (spec->kind) {
      case OptionSpec::flag:
        if (inline_value)
          return Error(Errc::invalid_argument,
                       name + " takes no value (got '" + *inline_value + "')");
        break;
      case OptionSpec::value:
        if (inline_value)
          value = *inline_value;
        else if (i + 1 < argc)
          value = argv[++i];
        else
          return Error(Errc::invalid_argument, name + " needs a value (" + spec_label(*spec) + ")");
        if (value.empty())
          return Error(Errc::invalid_argument,
                       name + " needs a non-empty " + std::string(spec->value_name));
        break;
      case OptionSpec::optional_value:
        if (inline_value) value = *inline_value;
        break;
    }
    out.given_.emplace_back(std::string(spec->name), value);
  }
  return out;
}

std::string options_help(std::span<const OptionSpec> specs) {
  size_t width = 0;
  size_t indent = any_short(specs) ? 0 : 4;  // no column of short names when none has one
  for (const auto& s : specs) width = std::max(width, spec_label(s).size() - indent);
  std::string out;
  for (const auto& s : specs) {
    std::string label = spec_label(s);
    label = label.substr(indent);
    out += "  " + label + std::string(width - label.size() + 2, ' ') + std::string(s.help) + "\n";
  }
  return out;
}

Result<int64_t> int_value(std::string_view option, std::string_view text, int64_t min,
                          int64_t max) {
  auto v = str::parse_int(text);
  std::string where = std::string(option) + ": '" + std::string(text) + "'";
  if (!v) return Error(Errc::invalid_argument, where + " is not a whole number");
  if (*v < min)
    return Error(Errc::invalid_argument, where + " must be at least " + std::to_string(min));
  if (*v > max)
    return Error(Errc::invalid_argument, where + " must be at most " + std::to_string(max));
  return *v;
}

}  // namespace scr::tools
