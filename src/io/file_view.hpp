// Memory-mapped file views for File::view (posix_env.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/status.hpp"
#include "io/env.hpp"

namespace scr::io {

// Map n bytes at offset of an open descriptor read-only, pages populated up
// front (one call instead of a fault per few pages). path names errors.
Result<std::unique_ptr<FileView>> map_range(int fd, const std::string& path, uint64_t offset,
                                            size_t n);

}  // namespace scr::io
