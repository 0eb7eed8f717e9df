#include "io/file_view.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace scr::io {

Result<std::unique_ptr<FileView>> File::view(uint64_t, size_t) {
  return Error(Errc::unsupported, "this file cannot be viewed in place");
}

namespace {

class MappedView final : public FileView {
 public:
  MappedView(void* base, size_t length, size_t skip, size_t n)
      : base_(base), length_(length), data_(static_cast<const uint8_t*>(base) + skip), size_(n) {}
  ~MappedView() override { ::munmap(base_, length_); }
  const uint8_t* data() const override { return data_; }
  size_t size() const override { return size_; }

 private:
  void* base_;
  size_t length_;
  const uint8_t* data_;
  size_t size_;
};

}  // namespace

Result<std::unique_ptr<FileView>> map_range(int fd, const std::string& path, uint64_t offset,
                                            size_t n) {
  if (n == 0) return Error(Errc::invalid_argument, "empty view of " + path);
  // Touching a mapping past the end of the file raises SIGBUS; refuse instead.
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno_status(errno, "stat", path);
  if (offset + n > static_cast<uint64_t>(st.st_size))
    return Error(Errc::corrupt, path + " is shorter than the " + std::to_string(n) +
                                    " bytes wanted at offset " + std::to_string(offset));
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  uint64_t start = offset / page * page;
  size_t skip = static_cast<size_t>(offset - start);
  size_t length = skip + n;
  void* base =
      ::mmap(nullptr, length, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, static_cast<off_t>(start));
  if (base == MAP_FAILED) return errno_status(errno, "map", path);
  return std::unique_ptr<FileView>(std::make_unique<MappedView>(base, length, skip, n));
}

}  // namespace scr::io
