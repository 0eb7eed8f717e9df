#include "options.hpp"

#include <string_view>

#include "common/strings.hpp"

namespace scr::bench {

const char* const kUsage =
    "usage: mpirun -n P redset_bench [options]\n"
    "Times, per repetition: writing each rank's checkpoint to its node's cache\n"
    "directory (the SINGLE baseline, fsynced), applying the scheme, and rebuilding\n"
    "after the loss of members of every set (by default as many as the scheme\n"
    "tolerates). Then the floor: the data movements the scheme is made of (viewing\n"
    "the checkpoint, sending it to a neighbour, XOR or RS encoding, CRC32C), each\n"
    "timed alone, summed as the scheme needs them per protected byte.\n"
    "Prints one JSON line with the medians.\n"
    "  --scheme S          single, partner, xor or rs (default xor)\n"
    "  --nodes N           simulated nodes: ranks split into N contiguous blocks\n"
    "                      (default: one node per rank)\n"
    "  --set-size N        SET_SIZE (default 8)\n"
    "  --k N               RS check chunks per member (default 2)\n"
    "  --replicas N        PARTNER copies (default 1)\n"
    "  --lose N            members lost per set before the rebuild, at most what the\n"
    "                      scheme tolerates (default: that many)\n"
    "  --bytes-per-rank B  checkpoint size per rank, e.g. 64MiB (default 64MiB)\n"
    "  --piece-size B      streaming piece size (default 1MiB)\n"
    "  --dir D             cache base directory (default /dev/shm/redset_bench)\n"
    "  --repeat N          repetitions; medians are reported (default 5)\n";

namespace {

Result<int64_t> positive(std::string_view flag, const std::string& v) {
  auto n = str::parse_int(v);
  if (!n || *n < 1)
    return Error(Errc::invalid_argument,
                 std::string(flag) + " needs a positive integer, got '" + v + "'");
  return *n;
}

Result<uint64_t> bytes(std::string_view flag, const std::string& v) {
  auto n = str::parse_bytes(v);
  if (!n) return n.status().with_context(std::string(flag));
  return *n;
}

}  // namespace

Result<Options> parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      o.help = true;
      continue;
    }
    if (i + 1 >= argc) return Error(Errc::invalid_argument, flag + " needs a value (see --help)");
    std::string v = argv[++i];
    if (flag == "--scheme") {
      SCR_ASSIGN_OR_RETURN(o.scheme, redset::parse_scheme(v));
    } else if (flag == "--nodes") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.nodes = static_cast<int>(n);
    } else if (flag == "--set-size") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.set_size = static_cast<int>(n);
    } else if (flag == "--k") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.k = static_cast<int>(n);
    } else if (flag == "--replicas") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.replicas = static_cast<int>(n);
    } else if (flag == "--lose") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.lose = static_cast<int>(n);
    } else if (flag == "--bytes-per-rank") {
      SCR_ASSIGN_OR_RETURN(o.bytes_per_rank, bytes(flag, v));
    } else if (flag == "--piece-size") {
      SCR_ASSIGN_OR_RETURN(o.piece_size, bytes(flag, v));
    } else if (flag == "--dir") {
      o.dir = v;
    } else if (flag == "--repeat") {
      SCR_ASSIGN_OR_RETURN(auto n, positive(flag, v));
      o.repeat = static_cast<int>(n);
    } else {
      return Error(Errc::invalid_argument, "unknown option " + flag + " (see --help)");
    }
  }
  return o;
}

}  // namespace scr::bench
