// Plain-text tables: a header row, columns padded to their widest cell and
// separated by two spaces, no trailing blanks (so output diffs and greps
// cleanly).
#pragma once

#include <string>
#include <vector>

namespace scr::tools {

class Table {
 public:
  explicit Table(std::vector<std::string> headers);
  // Numbers read better right-aligned.
  void align_right(size_t column);
  void add(std::vector<std::string> row);
  size_t rows() const { return rows_.size(); }
  std::string render() const;

 private:
  std::vector<std::string> headers_;
  std::vector<bool> right_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace scr::tools
