#include "tools/scr_ckpt_interval/interval.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>

namespace scr::tools::interval {
namespace {

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  bool at_end() {
    skip_ws();
    return i_ == s_.size();
  }
  size_t pos() const { return i_; }

  Result<std::string> string() {
    if (!eat('"')) return fail("a string");
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) break;
      char e = s_[i_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) return fail("four hex digits");
          unsigned code = static_cast<unsigned>(std::strtoul(std::string(s_.substr(i_, 4)).c_str(), nullptr, 16));
          i_ += 4;
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: out += e;
      }
    }
    if (i_ >= s_.size()) return fail("the end of the string");
    ++i_;
    return out;
  }

  // A number, true, false or null, as its text.
  Result<std::string> scalar() {
    skip_ws();
    size_t start = i_;
    while (i_ < s_.size() && std::string_view(",}] \t").find(s_[i_]) == std::string_view::npos) ++i_;
    std::string word(s_.substr(start, i_ - start));
    if (word == "true" || word == "false" || word == "null") return word;
    char* end = nullptr;
    std::strtod(word.c_str(), &end);
    if (word.empty() || *end != '\0') return fail("a value");
    return word;
  }

  Status fail(const std::string& what) const {
    return Error(Errc::corrupt, "expected " + what + " at column " + std::to_string(i_ + 1));
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

}  // namespace

Result<Event> parse_event(std::string_view line) {
  Reader r(line);
  Event e;
  if (!r.eat('{')) return r.fail("'{'");
  if (r.eat('}')) return e;
  do {
    SCR_ASSIGN_OR_RETURN(std::string key, r.string());
    if (!r.eat(':')) return r.fail("':'");
    r.skip_ws();
    bool quoted = r.pos() < line.size() && line[r.pos()] == '"';
    if (quoted) {
      SCR_ASSIGN_OR_RETURN(e[key], r.string());
    } else {
      if (r.pos() < line.size() && (line[r.pos()] == '{' || line[r.pos()] == '['))
        return r.fail("a string, number or boolean (nested values are not part of the log)");
      SCR_ASSIGN_OR_RETURN(e[key], r.scalar());
    }
  } while (r.eat(','));
  if (!r.eat('}')) return r.fail("',' or '}'");
  if (!r.at_end()) return r.fail("the end of the line");
  return e;
}

std::optional<double> parse_time(std::string_view text) {
  std::string t(text);
  std::tm tm{};
  const char* rest = ::strptime(t.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (!rest) return std::nullopt;
  double frac = 0;
  if (*rest == '.') {
    char* end = nullptr;
    frac = std::strtod(rest, &end);
    rest = end;
  }
  long offset = 0;
  if (*rest == 'Z') {
    ++rest;
  } else if (*rest == '+' || *rest == '-') {
    int sign = *rest == '-' ? -1 : 1;
    int hh = 0, mm = 0;
    if (std::sscanf(rest + 1, "%2d:%2d", &hh, &mm) != 2) return std::nullopt;
    offset = sign * (hh * 3600L + mm * 60L);
    rest += 6;
  } else {
    return std::nullopt;
  }
  if (*rest != '\0') return std::nullopt;
  return static_cast<double>(::timegm(&tm) - offset) + frac;
}

Observed observe(const std::vector<Event>& events, double now) {
  constexpr double kYear2000 = 946684800, kDay = 86400, kCentury = 100 * 365.25 * kDay;
  Observed o;
  std::optional<double> first, last;
  bool open = false, open_failed = false;
  auto close_run = [&](bool failed) {
    if (failed) ++o.failures;
    open = open_failed = false;
  };
  for (const auto& e : events) {
    ++o.events;
    auto at = e.find("time");
    if (at != e.end()) {
      auto t = parse_time(at->second);
      if (t && *t >= kYear2000 && *t <= now + kDay) {
        first = first ? std::min(*first, *t) : *t;
        last = last ? std::max(*last, *t) : *t;
      } else {
        ++o.bad_times;
      }
    }
    auto ev = e.find("event");
    if (ev == e.end()) continue;
    const std::string& name = ev->second;
    if (name == "START") {
      if (open) close_run(true);  // the previous run never ended
      open = true;
      ++o.runs;
    } else if (name == "END") {
      if (open) close_run(open_failed);
    } else if (name == "FAILURE") {
      ++o.failure_events;
      if (open) {
        open_failed = true;
      } else {
        ++o.failures;  // a failure logged outside a START/END pair
      }
    } else if (name == "CHECKPOINT_COMPLETE") {
      auto s = e.find("seconds");
      char* end = nullptr;
      if (s != e.end()) {
        double v = std::strtod(s->second.c_str(), &end);
        if (!s->second.empty() && *end == '\0' && std::isfinite(v) && v >= 0 && v <= kCentury)
          o.ckpt_seconds.push_back(v);
        else
          ++o.bad_seconds;
      }
    }
  }
  if (open) {
    if (open_failed)
      ++o.failures;  // it logged a FAILURE: counted even though it has no END yet
    else
      o.open_runs = 1;
  }
  if (first && last) o.span = *last - *first;
  return o;
}

std::optional<double> median(std::vector<double> v) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double young(double cost, double mtbf) { return std::sqrt(2 * cost * mtbf); }

double daly(double cost, double mtbf) {
  if (cost >= 2 * mtbf) return mtbf;
  double r = cost / (2 * mtbf);
  return std::sqrt(2 * cost * mtbf) * (1 + std::sqrt(r) / 3 + r / 9) - cost;
}

}  // namespace scr::tools::interval
