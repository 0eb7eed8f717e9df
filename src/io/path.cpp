#include "io/path.hpp"

#include <vector>

#include "common/strings.hpp"

namespace scr::io::path {

std::string join(std::string_view a, std::string_view b) {
  if (a.empty()) return std::string(b);
  if (b.empty()) return std::string(a);
  if (b.front() == '/') return std::string(b);
  std::string out(a);
  if (out.back() != '/') out.push_back('/');
  out.append(b);
  return out;
}

std::string dirname(std::string_view p) {
  std::string n = normalize(p);
  auto pos = n.rfind('/');
  if (pos == std::string::npos) return ".";
  if (pos == 0) return "/";
  return n.substr(0, pos);
}

std::string basename(std::string_view p) {
  std::string n = normalize(p);
  auto pos = n.rfind('/');
  return pos == std::string::npos ? n : n.substr(pos + 1);
}

bool is_absolute(std::string_view p) { return !p.empty() && p.front() == '/'; }

// The common case of normalize, which then needs no splitting and rejoining.
bool is_normal(std::string_view p) {
  if (p.empty() || p == "/") return false;
  size_t start = p[0] == '/' ? 1 : 0;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    if (end == std::string_view::npos) end = p.size();
    std::string_view part = p.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") return false;
    start = end + 1;
  }
  return true;
}

std::string normalize(std::string_view p) {
  if (is_normal(p)) return std::string(p);
  bool abs = is_absolute(p);
  std::vector<std::string> parts;
  for (auto& part : str::split(p, '/')) {
    if (part == ".") continue;
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!abs) parts.push_back("..");
      continue;  // ".." at the root stays at the root
    }
    parts.push_back(part);
  }
  if (parts.empty()) return abs ? "/" : ".";
  std::string out = abs ? "/" : "";
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out.push_back('/');
    out += parts[i];
  }
  return out;
}

namespace {
// is_within for paths already normalized.
bool normal_within(std::string_view b, std::string_view n) {
  if (n == b) return true;
  if (b == "/") return is_absolute(n);
  return n.size() > b.size() && n.compare(0, b.size(), b) == 0 && n[b.size()] == '/';
}
}  // namespace

bool is_within(std::string_view base, std::string_view p) { return normal_within(normalize(base), normalize(p)); }

std::string absolute(std::string_view p, std::string_view cwd) {
  return normalize(is_absolute(p) ? std::string(p) : join(cwd, p));
}

Result<std::string> relative_to(std::string_view base, std::string_view p) {
  std::string b = normalize(base);
  std::string n = normalize(p);
  if (!normal_within(b, n))
    return Error(Errc::invalid_argument, "path " + n + " is outside " + b);
  if (n == b) return std::string(".");
  return n.substr(b == "/" ? 1 : b.size() + 1);
}

std::string component_problem(std::string_view name) {
  if (name.empty()) return "it is empty";
  if (name == "." || name == "..") return "'.' and '..' are not names";
  if (name.size() > kMaxComponent)
    return "it is longer than " + std::to_string(kMaxComponent) + " bytes";
  for (char c : name) {
    if (c == '/') return "it contains '/'";
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "it contains a control character";
  }
  return "";
}

bool is_plain_name(std::string_view name) { return component_problem(name).empty(); }

}  // namespace scr::io::path
