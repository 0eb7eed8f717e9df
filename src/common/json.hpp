// SCR++'s one JSON writer: a small value of null, booleans, numbers,
// strings, arrays and objects whose keys keep the order they were added in
// (so output is stable and reads in the same order as the text form). The
// tools' --json output prints it indented, the event log's JSON-lines sink
// on one line each.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace scr {

class Json {
 public:
  Json() = default;                                                  // null
  Json(bool b) : kind_(Kind::boolean), bool_(b) {}                   // NOLINT: value type
  Json(int v) : Json(static_cast<int64_t>(v)) {}                     // NOLINT
  Json(int64_t v) : kind_(Kind::integer), int_(v) {}                 // NOLINT
  Json(uint64_t v) : kind_(Kind::unsigned_integer), uint_(v) {}      // NOLINT
  Json(double v) : kind_(Kind::real), real_(v) {}                    // NOLINT
  Json(std::string s) : kind_(Kind::string), text_(std::move(s)) {}  // NOLINT
  Json(const char* s) : Json(std::string(s)) {}                      // NOLINT
  static Json array();
  static Json object();
  // A number printed with exactly `places` decimals (0.412 as "0.412"
  // with 3), where a plain double prints six significant digits.
  static Json fixed(double v, int places);

  // Arrays: append. Objects: add (or replace) a member. Return *this.
  Json& push(Json value);
  Json& set(std::string_view key, Json value);

  // Pretty-printed with two-space indentation, no trailing newline.
  std::string dump() const;
  // On one line, no blanks between tokens (a JSON-lines record), no newline.
  std::string dump_line() const;

 private:
  enum class Kind { null, boolean, integer, unsigned_integer, real, string, array, object };
  // indent < 0: on one line.
  void write(std::string& out, int indent) const;

  Kind kind_ = Kind::null;
  bool bool_ = false;
  int64_t int_ = 0;
  uint64_t uint_ = 0;
  double real_ = 0;
  int places_ = -1;  // real: decimals (fixed), or -1 for %.6g
  std::string text_;
  std::vector<std::string> keys_;  // objects: keys_[i] names items_[i]
  std::vector<Json> items_;
};

// A JSON string literal, quotes included.
std::string json_quote(std::string_view s);

}  // namespace scr
