#include "runtime/config/config_line.hpp"

#include <cctype>

#include "runtime/config/params.hpp"

namespace scr::rt {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
bool is_key_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A cursor over the line; every token ends at a blank, '=' or the end.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : s_(text) {}
  void skip_blanks() {
    while (i_ < s_.size() && is_blank(s_[i_])) ++i_;
  }
  bool done() {
    skip_blanks();
    return i_ == s_.size();
  }
  bool take(char c) {
    skip_blanks();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  std::string key() {
    skip_blanks();
    size_t b = i_;
    while (i_ < s_.size() && is_key_char(s_[i_])) ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  // A value word: everything up to the next blank.
  std::string word() {
    skip_blanks();
    size_t b = i_;
    while (i_ < s_.size() && !is_blank(s_[i_])) ++i_;
    return std::string(s_.substr(b, i_ - b));
  }
  std::string rest() {
    skip_blanks();
    size_t e = s_.size();
    while (e > i_ && is_blank(s_[e - 1])) --e;
    std::string out(s_.substr(i_, e - i_));
    i_ = s_.size();
    return out;
  }
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

Status malformed(std::string what) { return Error(Errc::invalid_argument, std::move(what)); }

}  // namespace

Result<ConfigLine> parse_config_line(std::string_view text) {
  Scanner in(text);
  ConfigLine line;
  line.key = in.key();
  if (line.key.empty()) {
    if (in.done()) return malformed("empty configuration line");
    return malformed("expected a key, found '" + in.rest() + "'");
  }
  line.is_table = find_table(line.key) != nullptr;
  if (in.done()) return line;
  if (!in.take('='))
    return malformed("expected '=' after " + line.key + ", found '" + in.rest() + "'");
  if (!line.is_table) {
    line.value = in.rest();
    return line;
  }
  line.value = in.word();
  while (!in.done()) {
    ConfigItem item;
    item.name = in.key();
    if (item.name.empty())
      return malformed(line.key + "=" + *line.value + ": expected an item name, found '" +
                       in.rest() + "'");
    if (in.take('=')) item.value = in.word();
    else if (!in.done() && !is_key_char(in.peek()))
      return malformed(line.key + "=" + *line.value + ": malformed item '" + item.name + "' before '" +
                       in.rest() + "'");
    line.items.push_back(std::move(item));
  }
  return line;
}

}  // namespace scr::rt
