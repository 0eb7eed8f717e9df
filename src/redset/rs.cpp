// Reed-Solomon over GF(2^8): k check chunks per member, any k lost members of
// a set rebuilt (layout.hpp, gather.hpp, rs_jobs.hpp).
#include "redset/coded.hpp"
#include "redset/gather.hpp"
#include "redset/rs_jobs.hpp"
#include "redset/schemes.hpp"

namespace scr::redset::detail {

Status apply_rs(io::Env& env, const Set& set, const std::string& dir, kv::Tree files,
                const std::string& redfile, const std::string& spare, std::vector<FileEntry>& own) {
  int k = set.params().failures;
  return apply_coded(env, set, dir, std::move(files), redfile, spare, k, own, [&](SymbolStore& store, uint64_t chunk) {
    return run_gather(set.comm(), store, chunk, set.params().piece_size,
                      encode_jobs(set.ranks(), k), mpi::Patience::busy);
  });
}

Survey survey_rs(io::Env& env, const Set& set, const std::string& dir, const std::string& redfile,
                 bool files_checked) {
  int k = set.params().failures;
  auto decode = [&set, k](SymbolStore& store, uint64_t chunk, const SetLoss& loss) -> Status {
    SCR_ASSIGN_OR_RETURN(auto jobs, rebuild_jobs(set.ranks(), k, loss.lost));
    return run_gather(set.comm(), store, chunk, set.params().piece_size, jobs, mpi::Patience::spin_first);
  };
  return survey_coded(env, set, dir, redfile, k, decode, files_checked);
}

}  // namespace scr::redset::detail
