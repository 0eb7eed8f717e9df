// A directory tree as it was at one moment: every regular file's bytes,
// mode and modification time, by path relative to the directory. The
// offline rebuild tests put a dataset back, take parts of it away, and
// compare what the rebuild left with the original. Plain POSIX, independent
// of the io::Env code under test.
#pragma once

#include <sys/types.h>

#include <ctime>
#include <map>
#include <string>

namespace scr::redset::test {

struct FileState {
  std::string bytes;
  mode_t mode = 0;
  timespec mtime{};
};

using DirImage = std::map<std::string, FileState>;

DirImage take_image(const std::string& dir);
// Makes dir hold exactly the image: files rewritten with their bytes, mode
// and time, anything else removed.
void restore_image(const std::string& dir, const DirImage& image);
// "" when dir holds exactly `want`: the same files with the same bytes, and
// for application files (not *.redset) the same mode and time. Otherwise the
// first difference in words.
std::string image_differences(const std::string& dir, const DirImage& want);

}  // namespace scr::redset::test
