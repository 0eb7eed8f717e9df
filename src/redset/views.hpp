// Input pieces read in place where the file system allows (io::File::view,
// a memory mapping) and copied otherwise. In place saves the copy from the
// page cache: the kernels and MPI read the file's pages directly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "common/status.hpp"
#include "io/env.hpp"
#include "io/lofi.hpp"

namespace scr::redset {

using ViewHold = std::unique_ptr<io::FileView>;

// Below this a mapping costs more than the copy it saves.
inline constexpr size_t kMinView = size_t{64} << 10;

// n bytes at offset: in place (alive while `hold` is) or copied into `copy`.
Result<const uint8_t*> view_or_read(io::LogicalFile& file, uint64_t offset, size_t n, uint8_t* copy,
                                    ViewHold& hold);
Result<const uint8_t*> view_or_read(io::File& file, uint64_t offset, size_t n, uint8_t* copy,
                                    ViewHold& hold);

}  // namespace scr::redset
