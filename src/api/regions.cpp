#include "api/regions.hpp"

#include <map>

#include "io/path.hpp"
#include "mpi/comm.hpp"
#include "scr.h"

namespace scr::api {
namespace {

std::map<int, Region>& protected_regions() {
  static std::map<int, Region> regions;
  return regions;
}

std::string describe(const RegionShape& s) {
  return std::to_string(s.count) + " elements of " + std::to_string(s.elem_size) + " bytes" +
         (s.type.empty() ? "" : " (" + s.type + ")");
}

// A type tag is compared only when both sides have one: C callers give none.
Status same_shape(int id, const RegionShape& stored, const RegionShape& mine) {
  bool types_differ = !stored.type.empty() && !mine.type.empty() && stored.type != mine.type;
  if (stored.count == mine.count && stored.elem_size == mine.elem_size && !types_differ) return Status::Ok();
  return Error(Errc::invalid_argument, "region " + std::to_string(id) + ": the checkpoint holds " +
                                           describe(stored) + ", the region given has " + describe(mine));
}

Status in_restart(rt::Runtime& rt, const char* what) {
  if (rt.context().phase() == rt::Phase::restart) return Status::Ok();
  return Error(Errc::bad_state, std::string(what) + " needs an open restart phase (SCR_Start_restart)");
}

// The regions file of `writer` in the checkpoint being restarted, opened
// by its name (so any process may read any writer's at another size).
Result<RegionFile> open_writer(rt::Runtime& rt, int writer) {
  SCR_ASSIGN_OR_RETURN(int writers, rt.restart_ranks());
  if (writer < 0 || writer >= writers)
    return Error(Errc::invalid_argument, "writer " + std::to_string(writer) + " is out of range (the checkpoint was written by " +
                                             std::to_string(writers) + " processes)");
  const rt::Context& ctx = rt.context();
  // Listed names are prefix-relative: routed as absolute paths, whatever
  // the working directory.
  auto path = rt.route_file(io::path::join(ctx.settings.prefix, region_file_name(ctx.restart->name, writer)));
  // At the checkpoint's own size a process is handed its own files only
  // (another rank's may lie in another node's cache): saying the checkpoint
  // has no regions of that rank would be false.
  if (!path && path.status().code() == Errc::not_found && writers == ctx.ranks() && writer != ctx.rank())
    return Error(Errc::invalid_argument, "the checkpoint was written by as many processes as this job has (" +
                                             std::to_string(writers) + "): a process reads only its own regions (writer " +
                                             std::to_string(ctx.rank()) + "), not those of writer " + std::to_string(writer));
  if (!path && path.status().code() == Errc::not_found)
    return Error(Errc::invalid_argument,
                 "checkpoint " + ctx.restart->name + " holds no memory regions of rank " + std::to_string(writer) +
                     " (written with files only?): read its files with SCR_Route_file, or drop it "
                     "(SCR_Drop, scr_index --drop) to restart from an older checkpoint");
  if (!path) return path.status();
  return RegionFile::open(ctx.fs(), *path, writer);
}

// Everything read_regions checks before it copies: the file of this rank,
// every protected id present in it with the same shape, nothing in it left
// unprotected, every region's checksum.
Result<RegionFile> checked_own_file(rt::Runtime& rt) {
  SCR_TRY(in_restart(rt, "SCRPP_Read_regions"));
  SCR_ASSIGN_OR_RETURN(int writers, rt.restart_ranks());
  const rt::Context& ctx = rt.context();
  if (writers != ctx.ranks())
    return Error(Errc::invalid_argument, "the checkpoint was written by " + std::to_string(writers) +
                                             " processes and this job has " + std::to_string(ctx.ranks()) +
                                             "; read each writer's regions with SCRPP_Restore_from (C++: Regions::restore_from, "
                                             "Python: Regions.load_from, Fortran: scrpp_restore_from)");
  SCR_ASSIGN_OR_RETURN(RegionFile file, open_writer(rt, ctx.rank()));
  const auto& mine = protected_regions();
  for (const auto& [id, r] : mine) {
    auto stored = file.regions().find(id);
    if (stored == file.regions().end())
      return Error(Errc::invalid_argument, "region " + std::to_string(id) + " is protected but the checkpoint holds no data for it");
    SCR_TRY(same_shape(id, stored->second.shape, r.shape));
  }
  for (const auto& [id, stored] : file.regions())
    if (!mine.count(id))
      return Error(Errc::invalid_argument, "the checkpoint holds region " + std::to_string(id) + " (" +
                                               describe(stored.shape) + ") but no region is protected under that id");
  for (const auto& [id, r] : mine) SCR_TRY(file.verify(id));
  return file;
}

}  // namespace

Status protect_region(int id, const Region& region) {
  const RegionShape& s = region.shape;
  if (s.elem_size == 0) return Error(Errc::invalid_argument, "region " + std::to_string(id) + ": element size 0");
  if (s.count > UINT64_MAX / s.elem_size)
    return Error(Errc::invalid_argument, "region " + std::to_string(id) + ": size overflows");
  if (!region.ptr && s.count > 0)
    return Error(Errc::invalid_argument, "region " + std::to_string(id) + ": NULL pointer");
  protected_regions()[id] = region;
  return Status::Ok();
}

Status unprotect_region(int id) {
  if (protected_regions().erase(id) == 0)
    return Error(Errc::invalid_argument, "no region is protected under id " + std::to_string(id));
  return Status::Ok();
}

Status write_regions(rt::Runtime& rt) {
  const rt::Context& ctx = rt.context();
  if (ctx.phase() != rt::Phase::output)
    return Error(Errc::bad_state, "SCRPP_Write_regions needs an open output phase (SCR_Start_output)");
  std::string dataset = ctx.output->desc.value_or("NAME", "");
  std::string name = region_file_name(dataset, ctx.rank());
  // A phase holds one copy of the regions, as the application's files are
  // of one moment. Writing them again would rewrite that file in place, and
  // a second call that failed part way (a full cache) would cost the copy
  // already written: it is refused, and the first copy and the phase stay.
  if (ctx.output->routed.count(io::path::normalize(name)))
    return Error(Errc::bad_state, "SCRPP_Write_regions was already called in this output phase (dataset " + dataset +
                                      "): its regions are written once per phase, and the first copy stays; "
                                      "to save newer values, complete this phase and start another");
  // SCR++ names the file in the prefix itself, not from the working directory.
  SCR_ASSIGN_OR_RETURN(std::string path, rt.route_file(io::path::join(ctx.settings.prefix, name)));
  return write_region_file(ctx.fs(), path, ctx.rank(), protected_regions());
}

Status checkpoint_regions(rt::Runtime& rt, const std::string& name) {
  SCR_TRY(rt.start_output(name, SCR_FLAG_CHECKPOINT));
  Status written = write_regions(rt);
  // Completion agrees on validity: a failure on one process fails the dataset on all.
  Status completed = rt.complete_output(written.ok());
  return written.ok() ? completed : written;
}

Status read_regions(rt::Runtime& rt) {
  auto file = checked_own_file(rt);
  SCR_TRY(mpi::agree(rt.context().world, file.status()));
  Status copied;
  for (const auto& [id, r] : protected_regions())
    if (copied.ok()) copied = file->read_into(id, r.ptr);
  return mpi::agree(rt.context().world, copied);
}

Result<std::optional<std::string>> restore_regions(rt::Runtime& rt) {
  bool have = false;
  std::string offered;
  SCR_TRY(rt.have_restart(&have, &offered));
  if (!have) return std::optional<std::string>();
  SCR_ASSIGN_OR_RETURN(std::string name, rt.start_restart());
  Status read = read_regions(rt);
  // Regions that do not match are the application's mistake, not the
  // checkpoint's: it stays, valid, for a run that protects them right.
  bool application_error = read.code() == Errc::invalid_argument || read.code() == Errc::bad_state;
  Status completed = rt.complete_restart(read.ok() || application_error);
  SCR_TRY(read);
  SCR_TRY(completed);
  return std::optional<std::string>(name);
}

Result<RegionShape> stored_region(rt::Runtime& rt, int writer, int id) {
  SCR_TRY(in_restart(rt, "SCRPP_Region_info"));
  SCR_ASSIGN_OR_RETURN(RegionFile file, open_writer(rt, writer));
  auto it = file.regions().find(id);
  if (it == file.regions().end())
    return Error(Errc::invalid_argument, "the checkpoint holds no region " + std::to_string(id) + " of rank " + std::to_string(writer));
  return it->second.shape;
}

Status restore_region_from(rt::Runtime& rt, int writer, int id, const Region& into) {
  SCR_TRY(in_restart(rt, "SCRPP_Restore_from"));
  if (!into.ptr && into.shape.bytes() > 0) return Error(Errc::invalid_argument, "NULL buffer");
  SCR_ASSIGN_OR_RETURN(RegionFile file, open_writer(rt, writer));
  auto it = file.regions().find(id);
  if (it == file.regions().end())
    return Error(Errc::invalid_argument, "the checkpoint holds no region " + std::to_string(id) + " of rank " + std::to_string(writer));
  SCR_TRY(same_shape(id, it->second.shape, into.shape));
  SCR_TRY(file.verify(id));
  return file.read_into(id, into.ptr);
}

}  // namespace scr::api
