#include "kvtree/tree.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdio>

#include "common/strings.hpp"

namespace scr::kv {

Tree::Tree(const Tree& other) {
  for (const auto& [k, v] : other.children_) children_.emplace(k, std::make_unique<Tree>(*v));
}

Tree& Tree::operator=(const Tree& other) {
  if (this != &other) {
    Tree copy(other);
    children_ = std::move(copy.children_);
  }
  return *this;
}

Tree* Tree::get(std::string_view key) {
  auto it = children_.find(key);
  return it == children_.end() ? nullptr : it->second.get();
}

const Tree* Tree::get(std::string_view key) const {
  auto it = children_.find(key);
  return it == children_.end() ? nullptr : it->second.get();
}

const Tree* Tree::at(std::initializer_list<std::string_view> path) const {
  const Tree* t = this;
  for (auto key : path) {
    t = t->get(key);
    if (!t) return nullptr;
  }
  return t;
}

Tree* Tree::at(std::initializer_list<std::string_view> path) {
  Tree* t = this;
  for (auto key : path) {
    t = t->get(key);
    if (!t) return nullptr;
  }
  return t;
}

Tree& Tree::child(std::string_view key) {
  auto it = children_.find(key);
  if (it != children_.end()) return *it->second;
  auto [pos, inserted] = children_.emplace(std::string(key), std::make_unique<Tree>());
  return *pos->second;
}

Tree& Tree::child(std::string_view key, int64_t index) {
  return child(key).child(std::to_string(index));
}

Tree& Tree::reset(std::string_view key) { return put(key, Tree()); }

Tree& Tree::put(std::string_view key, Tree value) {
  auto it = children_.find(key);
  if (it != children_.end()) {
    *it->second = std::move(value);
    return *it->second;
  }
  auto [pos, inserted] =
      children_.emplace(std::string(key), std::make_unique<Tree>(std::move(value)));
  return *pos->second;
}

void Tree::erase(std::string_view key) {
  auto it = children_.find(key);
  if (it != children_.end()) children_.erase(it);
}

void Tree::set(std::string_view key, std::string_view value) { reset(key).child(value); }
void Tree::set_int(std::string_view key, int64_t value) { set(key, std::to_string(value)); }
void Tree::set_uint(std::string_view key, uint64_t value) { set(key, std::to_string(value)); }
void Tree::set_double(std::string_view key, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  set(key, buf);
}

std::optional<std::string> Tree::value(std::string_view key) const {
  const Tree* t = get(key);
  if (!t || t->children_.size() != 1) return std::nullopt;
  return t->children_.begin()->first;
}

std::string Tree::value_or(std::string_view key, std::string_view fallback) const {
  auto v = value(key);
  return v ? *v : std::string(fallback);
}

Result<int64_t> Tree::get_int(std::string_view key) const {
  auto v = value(key);
  if (!v) return Error(Errc::not_found, "missing key " + std::string(key));
  auto r = str::parse_int(*v);
  if (!r) return Error(Errc::corrupt, "key " + std::string(key) + ": " + r.status().message());
  return r;
}

Result<uint64_t> Tree::get_uint(std::string_view key) const {
  SCR_ASSIGN_OR_RETURN(int64_t v, get_int(key));
  if (v < 0) return Error(Errc::corrupt, "key " + std::string(key) + " is negative");
  return static_cast<uint64_t>(v);
}

int64_t Tree::int_or(std::string_view key, int64_t fallback) const {
  auto r = get_int(key);
  return r ? *r : fallback;
}

uint64_t Tree::uint_or(std::string_view key, uint64_t fallback) const {
  auto r = get_uint(key);
  return r ? *r : fallback;
}

double Tree::double_or(std::string_view key, double fallback) const {
  // Not str::parse_double: that one takes non-negative seconds only, while
  // set_double stores any finite value, negatives included.
  auto v = value(key);
  if (!v || v->empty()) return fallback;
  char* end = nullptr;
  double d = std::strtod(v->c_str(), &end);
  if (end != v->c_str() + v->size() || !std::isfinite(d)) return fallback;
  return d;
}

std::vector<int64_t> Tree::int_keys() const {
  std::vector<int64_t> out;
  for (const auto& [k, v] : children_) {
    int64_t n = 0;
    auto [p, ec] = std::from_chars(k.data(), k.data() + k.size(), n);
    // Only the canonical form ("4", not "04" or "-0"): callers look the
    // child up again by std::to_string of the number.
    if (ec == std::errc() && p == k.data() + k.size() && std::to_string(n) == k) out.push_back(n);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> Tree::keys() const {
  std::vector<std::string> out;
  out.reserve(children_.size());
  for (const auto& [k, v] : children_) out.push_back(k);
  return out;
}

void Tree::merge(const Tree& other) {
  for (const auto& [k, v] : other.children_) child(k).merge(*v);
}

bool Tree::operator==(const Tree& other) const {
  if (children_.size() != other.children_.size()) return false;
  auto a = children_.begin();
  auto b = other.children_.begin();
  for (; a != children_.end(); ++a, ++b) {
    if (a->first != b->first || *a->second != *b->second) return false;
  }
  return true;
}

}  // namespace scr::kv
