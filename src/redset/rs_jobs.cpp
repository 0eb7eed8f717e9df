#include "redset/rs_jobs.hpp"

#include <algorithm>

namespace scr::redset {

std::vector<StripeJob> encode_jobs(int members, int checks) {
  StripeLayout layout(members, checks);
  kernels::GfMatrix gen = kernels::cauchy_generator(layout.data_chunks(), checks);
  std::vector<int> check_rows;
  for (int j = 0; j < checks; ++j) check_rows.push_back(layout.data_chunks() + j);
  kernels::GfTables coefficients(kernels::select_rows(gen, check_rows));

  std::vector<StripeJob> jobs;
  for (int s = 0; s < members; ++s) {
    StripeJob job{s, {}, {}, coefficients};
    for (int pos = checks; pos < members; ++pos)
      job.sources.push_back({layout.member_at(s, pos), layout.symbol_at(pos)});
    for (int j = 0; j < checks; ++j)
      job.outputs.push_back({layout.member_at(s, j), Symbol::check(j)});
    jobs.push_back(std::move(job));
  }
  return jobs;
}

Result<std::vector<StripeJob>> rebuild_jobs(int members, int checks, const std::vector<int>& lost) {
  StripeLayout layout(members, checks);
  kernels::GfMatrix gen = kernels::cauchy_generator(layout.data_chunks(), checks);
  std::vector<int> survivors;
  for (int m = 0; m < members; ++m)
    if (!std::binary_search(lost.begin(), lost.end(), m)) survivors.push_back(m);
  int alive = static_cast<int>(survivors.size());

  std::vector<StripeJob> jobs;
  for (int s = 0; s < members; ++s) {
    std::vector<Located> sources, outputs;
    std::vector<int> known, wanted;
    for (int i = 0; i < layout.data_chunks(); ++i) {
      int m = survivors[static_cast<size_t>((s + i) % alive)];
      sources.push_back({m, layout.symbol_of(m, s)});
      known.push_back(layout.generator_row(layout.position(m, s)));
    }
    for (int m : lost) {
      outputs.push_back({m, layout.symbol_of(m, s)});
      wanted.push_back(layout.generator_row(layout.position(m, s)));
    }
    SCR_ASSIGN_OR_RETURN(kernels::GfMatrix coef, kernels::solve_for(gen, known, wanted));
    jobs.push_back(
        {sources.front().member, std::move(sources), std::move(outputs), kernels::GfTables(coef)});
  }
  return jobs;
}

}  // namespace scr::redset
