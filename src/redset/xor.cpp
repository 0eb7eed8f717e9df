// XOR (docs/design.md#xor): one check chunk per member, computed by the pipelined
// reduce-scatter around the ring; one lost member per set is rebuilt by the
// pipelined reduction to it.
#include "redset/coded.hpp"
#include "redset/ring.hpp"
#include "redset/schemes.hpp"

namespace scr::redset::detail {

Status apply_xor(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                 const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own) {
  return apply_coded(env, set, dir, std::move(files), redfile, spare, 1, own, [&](SymbolStore& store, uint64_t chunk) {
    return run_ring(set.comm(), store, chunk, set.params().piece_size, encode_steps(set.ranks()),
                    kEncodeDepth, mpi::Patience::busy);
  });
}

Survey survey_xor(io::Env& env, const Set& set, const std::string& dir,
                  const std::string& redfile, bool files_checked) {
  auto decode = [&set](SymbolStore& store, uint64_t chunk, const SetLoss& loss) {
    int root = loss.lost.front();
    return run_ring(set.comm(), store, chunk, set.params().piece_size,
                    rebuild_steps(set.ranks(), set.rank(), root), kRebuildDepth, mpi::Patience::spin_first);
  };
  return survey_coded(env, set, dir, redfile, 1, decode, files_checked);
}

}  // namespace scr::redset::detail
