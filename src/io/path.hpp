// Lexical path handling. No file system access: these decide whether a name
// an application gave us stays inside the directory it must stay in.
#pragma once

#include <string>
#include <string_view>

#include "common/status.hpp"

namespace scr::io::path {

std::string join(std::string_view a, std::string_view b);
std::string dirname(std::string_view p);   // "/a/b/c" -> "/a/b", "c" -> "."
std::string basename(std::string_view p);  // "/a/b/c" -> "c"
// Collapse "//", "." and ".." lexically; keeps a leading "/" and leading ".."
// of relative paths.
std::string normalize(std::string_view p);
// Already normal: no empty, "." or ".." component and no trailing '/'.
bool is_normal(std::string_view p);
bool is_absolute(std::string_view p);
// True when normalize(p) equals base or lies below it (both absolute).
bool is_within(std::string_view base, std::string_view p);
// Absolute, normalized form of p resolved against cwd when relative.
std::string absolute(std::string_view p, std::string_view cwd);
// p relative to base; requires is_within(base, p).
Result<std::string> relative_to(std::string_view base, std::string_view p);
// Longest single path component accepted (NAME_MAX on Linux).
inline constexpr size_t kMaxComponent = 255;
// Why `name` cannot be one component of a path, or "" when it can: empty,
// "." or "..", a '/', a control character, or longer than kMaxComponent.
// Names from the environment (job id, user, node) are checked with it before
// any directory is made from them.
std::string component_problem(std::string_view name);
// A single component that is safe to use as a file or directory name.
bool is_plain_name(std::string_view name);

}  // namespace scr::io::path
