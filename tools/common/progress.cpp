#include "tools/common/progress.hpp"

#include <unistd.h>

#include "common/strings.hpp"
#include "tools/common/times.hpp"

namespace scr::tools {

Progress::Progress(std::string label, uint64_t total_bytes, std::FILE* out, double quiet_seconds)
    : label_(std::move(label)),
      total_(total_bytes),
      out_(out),
      quiet_(quiet_seconds),
      tty_(out && ::isatty(::fileno(out)) == 1) {}

Progress::~Progress() { finish(); }

void Progress::add(uint64_t bytes) {
  done_ += bytes;
  auto now = Clock::now();
  double age = std::chrono::duration<double>(now - start_).count();
  double since = std::chrono::duration<double>(now - last_).count();
  if (!out_ || age < quiet_ || (printed_ && since < 1.0)) return;
  last_ = now;
  print(false);
}

void Progress::finish() {
  if (finished_) return;
  finished_ = true;
  if (printed_) print(true);
}

void Progress::print(bool final_line) {
  double secs = std::chrono::duration<double>(Clock::now() - start_).count();
  double rate = secs > 0 ? static_cast<double>(done_) / secs : 0;
  std::string line = label_ + ": " + str::format_bytes(done_) + " of " + str::format_bytes(total_);
  if (total_ > 0) line += " (" + std::to_string(done_ * 100 / total_) + "%)";
  line += ", " + str::format_bytes(static_cast<uint64_t>(rate)) + "/s";
  if (final_line)
    line += ", done in " + duration_words(static_cast<int64_t>(secs + 0.5));
  else if (rate > 0 && total_ > done_)
    line += ", " +
            duration_words(static_cast<int64_t>(static_cast<double>(total_ - done_) / rate + 0.5)) +
            " left";
  if (tty_)
    std::fprintf(out_, "\r%s\033[K%s", line.c_str(), final_line ? "\n" : "");
  else
    std::fprintf(out_, "%s\n", line.c_str());
  std::fflush(out_);
  printed_ = true;
}

}  // namespace scr::tools
