#include "common/json.hpp"

#include <cmath>
#include <cstdio>

namespace scr {

Json Json::array() {
  Json j;
  j.kind_ = Kind::array;
  return j;
}

Json Json::object() {
  Json j;
  j.kind_ = Kind::object;
  return j;
}

Json Json::fixed(double v, int places) {
  Json j(v);
  j.places_ = places;
  return j;
}

Json& Json::push(Json value) {
  if (kind_ != Kind::array) *this = array();
  items_.push_back(std::move(value));
  return *this;
}

Json& Json::set(std::string_view key, Json value) {
  if (kind_ != Kind::object) *this = object();
  for (size_t i = 0; i < keys_.size(); ++i)
    if (keys_[i] == key) {
      items_[i] = std::move(value);
      return *this;
    }
  keys_.emplace_back(key);
  items_.push_back(std::move(value));
  return *this;
}

std::string json_quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);  // UTF-8 passes through
        }
    }
  }
  return out + "\"";
}

void Json::write(std::string& out, int indent) const {
  bool one_line = indent < 0;
  std::string pad(one_line ? 0 : static_cast<size_t>(indent + 2), ' ');
  std::string close_pad(one_line ? 0 : static_cast<size_t>(indent), ' ');
  switch (kind_) {
    case Kind::null:
      out += "null";
      return;
    case Kind::boolean:
      out += bool_ ? "true" : "false";
      return;
    case Kind::integer:
      out += std::to_string(int_);
      return;
    case Kind::unsigned_integer:
      out += std::to_string(uint_);
      return;
    case Kind::real: {
      if (!std::isfinite(real_)) {
        out += "null";  // JSON has no infinity or NaN
        return;
      }
      char buf[64];
      if (places_ >= 0)
        std::snprintf(buf, sizeof buf, "%.*f", places_, real_);
      else
        std::snprintf(buf, sizeof buf, "%.6g", real_);
      out += buf;
      return;
    }
    case Kind::string:
      out += json_quote(text_);
      return;
    case Kind::array:
    case Kind::object: {
      bool obj = kind_ == Kind::object;
      if (items_.empty()) {
        out += obj ? "{}" : "[]";
        return;
      }
      const char* newline = one_line ? "" : "\n";
      out += obj ? "{" : "[";
      out += newline;
      for (size_t i = 0; i < items_.size(); ++i) {
        out += pad;
        if (obj) out += json_quote(keys_[i]) + (one_line ? ":" : ": ");
        items_[i].write(out, one_line ? -1 : indent + 2);
        if (i + 1 < items_.size()) out += ",";
        out += newline;
      }
      out += close_pad + (obj ? "}" : "]");
      return;
    }
  }
}

std::string Json::dump() const {
  std::string out;
  write(out, 0);
  return out;
}

std::string Json::dump_line() const {
  std::string out;
  write(out, -1);
  return out;
}

}  // namespace scr
