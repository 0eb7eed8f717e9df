#include "runtime/config/config_expand.hpp"

#include <cctype>

namespace scr::rt {
namespace {

bool is_var_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_var_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

Result<std::string> expand_vars(std::string_view text, const Getenv& getenv) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    bool braced = c == '$' && i + 1 < text.size() && text[i + 1] == '{';
    bool plain = c == '$' && i + 1 < text.size() && is_var_start(text[i + 1]);
    if (!braced && !plain) {
      out.push_back(c);
      ++i;
      continue;
    }
    std::string name;
    if (braced) {
      size_t close = text.find('}', i + 2);
      if (close == std::string_view::npos)
        return Error(Errc::invalid_argument, "unterminated '${' in '" + std::string(text) + "'");
      name = std::string(text.substr(i + 2, close - i - 2));
      bool valid = !name.empty() && is_var_start(name[0]);
      for (char n : name) valid = valid && is_var_char(n);
      if (!valid) return Error(Errc::invalid_argument, "bad variable name '${" + name + "}'");
      i = close + 1;
    } else {
      size_t end = i + 1;
      while (end < text.size() && is_var_char(text[end])) ++end;
      name = std::string(text.substr(i + 1, end - i - 1));
      i = end;
    }
    const char* value = getenv ? getenv(name.c_str()) : nullptr;
    if (!value) return Error(Errc::invalid_argument, "undefined variable '" + name + "'");
    out += value;
  }
  return out;
}

}  // namespace scr::rt
