#include "redset/redset.hpp"

#include "io/files.hpp"
#include "io/path.hpp"
#include "redset/pending.hpp"
#include "redset/schemes.hpp"
#include "redset/shape.hpp"

namespace scr::redset {

namespace detail {
namespace {
class Unchanged : public Rebuild {
 public:
  explicit Unchanged(std::vector<FileEntry> files) : files_(std::move(files)) {}
  Result<std::vector<FileEntry>> run() override { return files_; }

 private:
  std::vector<FileEntry> files_;
};
}  // namespace

std::unique_ptr<Rebuild> nothing_to_rebuild(std::vector<FileEntry> files) {
  return std::make_unique<Unchanged>(std::move(files));
}
}  // namespace detail

std::string redundancy_file(const Set& set, const std::string& dir) {
  return io::path::join(dir, set.shape().file_name(set.rank()));
}

std::vector<std::string> redundancy_files(const Set& set) {
  return {io::path::basename(redundancy_file(set, "."))};
}

Status apply(io::Env& env, const Set& set, const std::string& dir,
             const std::vector<std::string>& files) {
  auto described = describe_files(env, dir, files);
  // Every member must get this far, or the collective encoders would hang.
  SCR_TRY(mpi::agree(set.parent(), described.status()));
  std::string redfile = redundancy_file(set, dir);
  Status st;
  switch (set.scheme()) {
    case Scheme::single: st = detail::apply_single(env, set, dir, *described, redfile); break;
    case Scheme::partner: st = detail::apply_partner(env, set, dir, *described, redfile); break;
    case Scheme::xor_code: st = detail::apply_xor(env, set, dir, *described, redfile); break;
    case Scheme::rs: st = detail::apply_rs(env, set, dir, *described, redfile); break;
  }
  return mpi::agree(set.parent(), st);
}

namespace {
detail::Survey survey(io::Env& env, const Set& set, const std::string& dir,
                      const std::string& redfile) {
  switch (set.scheme()) {
    case Scheme::single: return detail::survey_single(env, set, dir, redfile);
    case Scheme::partner: return detail::survey_partner(env, set, dir, redfile);
    case Scheme::xor_code: return detail::survey_xor(env, set, dir, redfile);
    case Scheme::rs: return detail::survey_rs(env, set, dir, redfile);
  }
  return Status(Errc::unsupported, "unknown scheme");
}
}  // namespace

// Two halves (see schemes.hpp): every set surveys its loss, all agree it can
// be rebuilt, and only then does any set write.
Result<std::vector<std::string>> recover(io::Env& env, const Set& set, const std::string& dir) {
  auto rebuild = survey(env, set, dir, redundancy_file(set, dir));
  SCR_TRY(mpi::agree(set.parent(), rebuild.status()));
  auto got = (*rebuild)->run();
  SCR_TRY(mpi::agree(set.parent(), got.status()));
  return names(*got);
}

// Also whatever an apply that died part way left behind.
Status unapply(io::Env& env, const Set& set, const std::string& dir) {
  std::string redfile = redundancy_file(set, dir);
  SCR_TRY(io::remove_file(env, pending_path(redfile)));
  return io::remove_file(env, redfile);
}

}  // namespace scr::redset
