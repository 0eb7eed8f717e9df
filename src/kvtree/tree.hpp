// The metadata tree (docs/formats/kvtree.md): nested string keys, each key owning a
// subtree. "KEY = VALUE" is the special case of a key whose subtree holds one
// leaf key. Every header, filemap, index and descriptor on disk is a Tree.
// Children are kept sorted so that encodings and printouts are deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace scr::kv {

class Tree {
 public:
  using Children = std::map<std::string, std::unique_ptr<Tree>, std::less<>>;

  Tree() = default;
  Tree(const Tree& other);
  Tree& operator=(const Tree& other);
  Tree(Tree&&) noexcept = default;
  Tree& operator=(Tree&&) noexcept = default;
  ~Tree() = default;

  bool empty() const { return children_.empty(); }
  size_t size() const { return children_.size(); }
  const Children& children() const { return children_; }
  bool has(std::string_view key) const { return get(key) != nullptr; }

  // Child lookup; nullptr when absent.
  Tree* get(std::string_view key);
  const Tree* get(std::string_view key) const;
  // Follow a path of keys ("DESC", "0", "FILE"); nullptr when any is absent.
  const Tree* at(std::initializer_list<std::string_view> path) const;
  Tree* at(std::initializer_list<std::string_view> path);

  // Child for key, created empty if absent.
  Tree& child(std::string_view key);
  // Replace key's subtree with an empty one (or with `value`) and return it.
  Tree& reset(std::string_view key);
  Tree& put(std::string_view key, Tree value);
  void erase(std::string_view key);
  void clear() { children_.clear(); }

  // KEY = VALUE helpers. set_* replaces whatever was under key.
  void set(std::string_view key, std::string_view value);
  void set_int(std::string_view key, int64_t value);
  void set_uint(std::string_view key, uint64_t value);
  void set_double(std::string_view key, double value);
  // The one leaf key under key, if key holds exactly one child.
  std::optional<std::string> value(std::string_view key) const;
  std::string value_or(std::string_view key, std::string_view fallback) const;
  Result<int64_t> get_int(std::string_view key) const;
  Result<uint64_t> get_uint(std::string_view key) const;
  int64_t int_or(std::string_view key, int64_t fallback) const;
  uint64_t uint_or(std::string_view key, uint64_t fallback) const;
  double double_or(std::string_view key, double fallback) const;

  // "KEY VALUE" nesting: returns the subtree key/value, creating both.
  // Used for indexed lists such as DESC/3/... and RANK/0/...
  Tree& child(std::string_view key, std::string_view value) {
    return child(key).child(value);
  }
  Tree& child(std::string_view key, int64_t index);

  // Children keys parsed as integers, sorted ascending; keys that are not an
  // integer in its canonical form (std::to_string of it) are skipped.
  std::vector<int64_t> int_keys() const;
  std::vector<std::string> keys() const;

  // Deep-merge other into this: keys of other are added recursively.
  void merge(const Tree& other);

  bool operator==(const Tree& other) const;
  bool operator!=(const Tree& other) const { return !(*this == other); }

 private:
  Children children_;
};

}  // namespace scr::kv
