#include "tools/scr_scavenge/wire.hpp"

#include "common/strings.hpp"
#include "kvtree/codec.hpp"
#include "tools/common/remote.hpp"

namespace scr::tools::scavenge {
namespace {

constexpr const char* kLine = "SCRPP_AGENT ";
constexpr const char* kEnd = "SCRPP_AGENT_END";
constexpr size_t kHexPerLine = 1024;  // well below any line limit on the way

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string frame_answer(const kv::Tree& answer) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string bytes = kv::encode(answer);
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  std::string out;
  for (size_t at = 0; at < hex.size(); at += kHexPerLine)
    out += kLine + hex.substr(at, kHexPerLine) + "\n";
  return out + kEnd + "\n";
}

Result<kv::Tree> read_answer(const std::string& output, const std::string& node) {
  std::string bytes;
  bool ended = false;
  for (const std::string& line : node_lines(output, node)) {
    if (line == kEnd) {
      ended = true;
      break;
    }
    if (!str::starts_with(line, kLine)) continue;  // anything else the node printed
    std::string_view hex(line);
    hex.remove_prefix(std::string_view(kLine).size());
    if (hex.size() % 2) return Error(Errc::corrupt, "sent a damaged answer");
    for (size_t i = 0; i < hex.size(); i += 2) {
      int hi = hex_value(hex[i]), lo = hex_value(hex[i + 1]);
      if (hi < 0 || lo < 0) return Error(Errc::corrupt, "sent a damaged answer");
      bytes += static_cast<char>(hi * 16 + lo);
    }
  }
  if (!ended)
    return Error(Errc::corrupt, bytes.empty() ? "gave no answer" : "sent an answer that was cut off");
  auto tree = kv::decode(bytes);
  if (!tree) return Error(Errc::corrupt, "sent an answer that does not decode: " + tree.status().message());
  return tree;
}

}  // namespace scr::tools::scavenge
