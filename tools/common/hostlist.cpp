#include "tools/common/hostlist.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "common/strings.hpp"

namespace scr::tools {
namespace {

// Entries of a list: split at commas that are not inside brackets.
Result<std::vector<std::string>> split_entries(std::string_view list) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']' && --depth < 0) break;
    if (c == ',' && depth == 0) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      continue;
    }
    if (c == ' ' && depth == 0) continue;
    cur += c;
  }
  if (depth != 0) return Error(Errc::invalid_argument, "unbalanced brackets in host list '" +
                                                           std::string(list) + "'");
  if (!cur.empty()) out.push_back(cur);
  return out;
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ",") + i;
  return out;
}

std::string padded(uint64_t n, size_t width) {
  std::string s = std::to_string(n);
  return s.size() < width ? std::string(width - s.size(), '0') + s : s;
}

// "n[1-3,7]x" -> n1x n2x n3x n7x (one bracket group; nested groups are
// expanded by recursion on the suffix).
Status expand_entry(const std::string& entry, std::vector<std::string>& out) {
  size_t open = entry.find('[');
  if (open == std::string::npos) {
    out.push_back(entry);
    return Status::Ok();
  }
  size_t close = entry.find(']', open);
  if (close == std::string::npos)
    return Error(Errc::invalid_argument, "unbalanced brackets in host list entry '" + entry + "'");
  std::string stem = entry.substr(0, open), rest = entry.substr(close + 1);
  for (const auto& part : str::split(entry.substr(open + 1, close - open - 1), ',')) {
    auto dash = part.find('-');
    std::string lo = part.substr(0, dash), hi = dash == std::string::npos ? lo : part.substr(dash + 1);
    if (!all_digits(lo) || !all_digits(hi) || lo.size() > 18 || hi.size() > 18)
      return Error(Errc::invalid_argument, "'" + part + "' in host list entry '" + entry +
                                               "' is not a number or range");
    uint64_t a = std::stoull(lo), b = std::stoull(hi);
    if (b < a || b - a > 100000)
      return Error(Errc::invalid_argument, "range '" + part + "' in '" + entry + "' is backwards or too large");
    for (uint64_t n = a; n <= b; ++n) SCR_TRY(expand_entry(stem + padded(n, lo.size()) + rest, out));
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<std::string>> expand_hosts(std::string_view list) {
  SCR_ASSIGN_OR_RETURN(auto entries, split_entries(list));
  std::vector<std::string> all;
  for (const auto& e : entries) SCR_TRY(expand_entry(e, all));
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (auto& h : all)
    if (seen.insert(h).second) out.push_back(std::move(h));
  return out;
}

std::string compress_hosts(const std::vector<std::string>& hosts) {
  // Split each host into stem and trailing digits; hosts without them stand alone.
  std::vector<std::pair<std::string, std::string>> numbered;
  std::set<std::string> plain;
  std::set<std::pair<std::string, size_t>> padded_widths;  // stems with zero-padded numbers
  for (const auto& h : hosts) {
    size_t d = h.size();
    while (d > 0 && h[d - 1] >= '0' && h[d - 1] <= '9') --d;
    if (d == h.size() || h.size() - d > 18) {
      plain.insert(h);
      continue;
    }
    numbered.emplace_back(h.substr(0, d), h.substr(d));
    if (h.size() - d > 1 && h[d] == '0') padded_widths.insert({h.substr(0, d), h.size() - d});
  }
  // stem and digit width (0: not padded) -> numbers. A number as wide as the
  // padded ones of its stem ("n10" beside "n08") joins their group.
  std::map<std::pair<std::string, size_t>, std::set<uint64_t>> groups;
  for (const auto& [stem, digits] : numbered) {
    size_t width = padded_widths.count({stem, digits.size()}) ? digits.size() : 0;
    groups[{stem, width}].insert(std::stoull(digits));
  }
  std::vector<std::string> parts;
  for (const auto& [key, numbers] : groups) {
    const auto& [stem, width] = key;
    std::vector<std::string> ranges;
    for (auto it = numbers.begin(); it != numbers.end();) {
      uint64_t a = *it, b = a;
      for (++it; it != numbers.end() && *it == b + 1; ++it) b = *it;
      ranges.push_back(a == b ? padded(a, width) : padded(a, width) + "-" + padded(b, width));
    }
    bool single = numbers.size() == 1;
    parts.push_back(single ? stem + ranges.front() : stem + "[" + join(ranges) + "]");
  }
  parts.insert(parts.end(), plain.begin(), plain.end());
  return join(parts);
}

}  // namespace scr::tools
