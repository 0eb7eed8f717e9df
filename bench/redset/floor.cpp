#include "floor.hpp"

#include <unistd.h>

#include <algorithm>
#include <vector>

#include "common/crc32c.hpp"
#include "io/files.hpp"
#include "mpi/requests.hpp"
#include "mpi/tags.hpp"
#include "redset/buffer.hpp"
#include "redset/kernels/gf256.hpp"
#include "redset/kernels/xor.hpp"
#include "redset/layout.hpp"
#include "redset/ring.hpp"
#include "redset/rs_jobs.hpp"

namespace scr::bench {
namespace {

using redset::AlignedBuffer;

// The per-piece loop every part shares: f(offset, length) over `bytes`.
template <class F>
void each_piece(uint64_t bytes, size_t piece, F&& f) {
  for (uint64_t off = 0; off < bytes; off += piece)
    f(off, static_cast<size_t>(std::min<uint64_t>(piece, bytes - off)));
}

constexpr int kTag = mpi::tags::kRing;

// A byte of `sink` depends on every piece, so no part is optimised away.
volatile uint8_t sink;

// D bytes around the set's ring, piece by piece, with the XOR encode's
// pipeline (the cheapest tried here: with four buffers a side and two pieces
// ahead the same bytes took 40-55% longer), and its waits, MPI's own
// (mpi::Patience::busy, as every member of an encode waits).
void ring_transfer(const mpi::Comm& comm, uint64_t bytes, size_t piece) {
  constexpr size_t kSlots = redset::kEncodeDepth.buffers, kAhead = redset::kEncodeDepth.ahead;
  int n = comm.size();
  int right = (comm.rank() + 1) % n, left = (comm.rank() + n - 1) % n;
  std::vector<AlignedBuffer> out, in;
  for (size_t s = 0; s < kSlots; ++s) {
    out.emplace_back(piece);
    in.emplace_back(piece);
    std::fill_n(out.back().data(), piece, static_cast<uint8_t>(s));
  }
  mpi::Requests sends(kSlots), recvs(kSlots);
  uint64_t count = (bytes + piece - 1) / piece;
  auto len = [&](uint64_t u) { return static_cast<int>(std::min<uint64_t>(piece, bytes - u * piece)); };
  auto post = [&](uint64_t u) { recvs.irecv(u % kSlots, comm, in[u % kSlots].data(), len(u), left, kTag); };
  for (uint64_t u = 0; u < std::min<uint64_t>(kAhead, count); ++u) post(u);
  for (uint64_t u = 0; u < count; ++u) {
    size_t s = u % kSlots;
    sends.wait(s, 1, mpi::Patience::busy);
    sends.isend(s, comm, out[s].data(), len(u), right, kTag);
    recvs.wait(s, 1, mpi::Patience::busy);
    sink = in[s].data()[0];
    if (u + kAhead < count) post(u + kAhead);
  }
  sends.wait_all(mpi::Patience::busy);
}

// D bytes from rank 1 to rank 0 of `comm` alone, with the same pipeline:
// what a member pays to receive them when no other member is busy.
void pair_transfer(const mpi::Comm& comm, uint64_t bytes, size_t piece) {
  if (comm.size() < 2 || comm.rank() > 1) return;
  constexpr size_t kSlots = redset::kEncodeDepth.buffers, kAhead = redset::kEncodeDepth.ahead;
  bool receiver = comm.rank() == 0;
  std::vector<AlignedBuffer> slots;
  for (size_t s = 0; s < kSlots; ++s) {
    slots.emplace_back(piece);
    std::fill_n(slots.back().data(), piece, static_cast<uint8_t>(s));
  }
  mpi::Requests reqs(kSlots);
  uint64_t count = (bytes + piece - 1) / piece;
  auto len = [&](uint64_t u) { return static_cast<int>(std::min<uint64_t>(piece, bytes - u * piece)); };
  auto post = [&](uint64_t u) { reqs.irecv(u % kSlots, comm, slots[u % kSlots].data(), len(u), 1, kTag); };
  if (receiver)
    for (uint64_t u = 0; u < std::min<uint64_t>(kAhead, count); ++u) post(u);
  for (uint64_t u = 0; u < count; ++u) {
    size_t s = u % kSlots;
    reqs.wait(s);
    if (!receiver) {
      reqs.isend(s, comm, slots[s].data(), len(u), 0, kTag);
      continue;
    }
    sink = slots[s].data()[0];
    if (u + kAhead < count) post(u + kAhead);
  }
  reqs.wait_all();
}

// A block of the checkpoint's bytes (4 MiB, or a piece if larger), read
// once before the timed parts: the kernels then run from memory, as they do
// on pieces already viewed.
AlignedBuffer sample_block(io::File* file, uint64_t bytes, size_t piece) {
  AlignedBuffer block(static_cast<size_t>(std::min<uint64_t>(bytes, std::max(size_t{4} << 20, piece))));
  if (file) (void)file->pread(block.data(), block.size(), 0);
  return block;
}

}  // namespace

Result<FloorParts> measure_floor(const mpi::Comm& world, const redset::Set& set, io::Env& env,
                                 const std::string& path, uint64_t bytes, size_t requested, int k) {
  // The engines' pieces (a multiple of the kernels' alignment, never 0).
  const size_t piece = redset::normalized_piece(requested);
  // Every rank times every part whatever fails (the parts are collective);
  // the first error is returned at the end, for the caller to agree on.
  Status st;
  auto note = [&st](const Status& s) {
    if (st.ok() && !s.ok()) st = s;
  };
  auto opened = env.open(path, io::OpenMode::read);
  note(opened.status());
  io::File* file = opened.ok() ? opened->get() : nullptr;
  AlignedBuffer block = sample_block(file, bytes, piece);
  AlignedBuffer buf(piece);
  // Sources for the kernels within the sample block, 64-byte aligned as the
  // engines' pieces are.
  auto from_block = [&](uint64_t off, size_t n) {
    uint64_t room = block.size() > n ? block.size() - n + 1 : 1;
    return block.data() + (off % room) / 64 * 64;
  };
  FloorParts p;
  p.view = timed(world, [&] {
    if (file)
      each_piece(bytes, piece, [&](uint64_t off, size_t n) {
        auto v = file->view(off, n);
        note(v.status());
        if (v.ok()) sink = (*v)->data()[n - 1];
      });
  });
  // The checksum's pass reads every byte of the checkpoint from memory; the
  // crc part below runs on a block in the processor's caches, which no
  // checkpoint larger than those caches can be.
  p.check = timed(world, [&] {
    uint32_t crc = 0;
    if (file)
      each_piece(bytes, piece, [&](uint64_t off, size_t n) {
        auto v = file->view(off, n);
        note(v.status());
        if (v.ok()) crc = crc32c((*v)->data(), n, crc);
      });
    sink = static_cast<uint8_t>(crc);
  });
  p.read = timed(world, [&] {
    if (file)
      each_piece(bytes, piece, [&](uint64_t off, size_t n) {
        auto got = file->pread(buf.data(), n, off);
        note(got.status());
        if (got.ok()) sink = buf.data()[n - 1];
      });
  });
  p.send = timed(world, [&] { ring_transfer(set.comm(), bytes, piece); });
  p.receive_alone = timed(world, [&] { pair_transfer(world, bytes, piece); });
  // Into a new file, as a lost member writes its files again; the file is
  // removed after the timing (freeing its pages is not part of a write).
  const std::string scratch = path + ".floor";
  p.write_alone = timed(world, [&] {
    if (world.rank() != 0) return;
    auto out = env.open(scratch, io::OpenMode::create, 0600);
    note(out.status());
    if (!out.ok()) return;
    each_piece(bytes, piece, [&](uint64_t off, size_t n) { note((*out)->pwrite(from_block(off, n), n, off)); });
    note((*out)->close());
  });
  if (world.rank() == 0) note(io::remove_file(env, scratch));
  p.ranks = world.size();
  p.xor_ = timed(world, [&] {
    each_piece(bytes, piece, [&](uint64_t off, size_t n) {
      redset::kernels::xor_into(buf.data(), from_block(off, n), n);
    });
    sink = buf.data()[0];
  });
  p.crc = timed(world, [&] {
    uint32_t crc = 0;
    each_piece(bytes, piece, [&](uint64_t off, size_t n) { crc = crc32c(from_block(off, n), n, crc); });
    sink = static_cast<uint8_t>(crc);
  });
  if (set.scheme() == redset::Scheme::rs) {
    // Per stripe piece: p-k sources of one piece each into k checks, so D
    // source bytes take D / ((p-k) piece) such calls.
    int data = set.ranks() - k;
    redset::kernels::GfMatrix gen = redset::kernels::cauchy_generator(data, k);
    std::vector<int> rows;
    for (int j = 0; j < k; ++j) rows.push_back(data + j);
    redset::kernels::GfTables tables(redset::kernels::select_rows(gen, rows));
    std::vector<AlignedBuffer> outs;
    std::vector<uint8_t*> out_ptrs;
    for (int j = 0; j < k; ++j) out_ptrs.push_back(outs.emplace_back(piece).data());
    std::vector<const uint8_t*> srcs(static_cast<size_t>(data));
    p.code = timed(world, [&] {
      each_piece(bytes, piece * static_cast<size_t>(data), [&](uint64_t off, size_t n) {
        size_t each = std::max<size_t>(n / static_cast<size_t>(data), 1);
        for (int c = 0; c < data; ++c) srcs[static_cast<size_t>(c)] = from_block(off + static_cast<uint64_t>(c) * each, each);
        tables.encode(srcs, out_ptrs, each);
      });
      sink = out_ptrs[0][0];
    });
  }
  SCR_TRY(st);
  return p;
}

namespace {

// Bytes each part moves, in units of the checkpoint's size D: on average
// per member of the set (the machine's bound), or for one member (its own
// path). `read` from the member's files, `crc` checksummed (what was read and
// what was received), `received` from other members, `written` into the cache.
struct Counts {
  double read = 1, crc = 1, received = 0, written = 0, xored = 0, coded = 0;
};

// Seconds per D bytes of each movement.
struct Costs {
  double pass = 0;  // read from the files and checksummed in one pass
  double read = 0, crc = 0, receive = 0, write = 0, xor_ = 0, code = 0;
};

// The parts in wall or CPU time (`of`), each divided by `share`; `receive`
// and `write` are the parts that move data into a member. Bytes read from
// the files and checksummed are taken in one pass (viewed and checked, or
// read into a buffer and checked there); the rest of the reads are views
// alone, the rest of the checksums run from the caches.
Costs costs_of(const FloorParts& parts, const Timing& receive, const Timing& write,
               double Timing::*of, double share) {
  Costs k;
  k.read = std::min(parts.view.*of, parts.read.*of) / share;
  k.pass = std::min(parts.check.*of, parts.read.*of + parts.crc.*of) / share;
  k.crc = parts.crc.*of / share;
  k.xor_ = parts.xor_.*of / share;
  k.code = parts.code.*of / share;
  k.receive = receive.*of / share;
  k.write = write.*of / share;
  return k;
}

double sum_of(const Counts& c, const Costs& k) {
  const double checked_as_read = std::min(c.read, c.crc);
  return checked_as_read * k.pass + (c.read - checked_as_read) * k.read +
         (c.crc - checked_as_read) * k.crc + c.received * k.receive + c.written * k.write +
         c.xored * k.xor_ + c.coded * k.code;
}

// The machine's bound for the set's average counts: the parts as every rank
// ran them at once, the smaller of their wall times and of their CPU times
// spread over the cores.
double machine_bound(const Counts& c, const FloorParts& parts, const Timing& write) {
  double cores = static_cast<double>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  return std::min(sum_of(c, costs_of(parts, parts.send, write, &Timing::wall_s, 1)),
                  sum_of(c, costs_of(parts, parts.send, write, &Timing::cpu_s, cores)));
}

// One member's own path: each part at its CPU time per process. Receiving
// and writing are measured twice, shared (every rank at once) and by one
// process alone; the cheaper counts, so that one slow measurement does not
// lift the bound above what the engine can do.
double path_bound(const Counts& c, const FloorParts& parts, const Timing& write) {
  const double ranks = std::max(parts.ranks, 1);
  Costs k = costs_of(parts, parts.send, write, &Timing::cpu_s, ranks);
  k.receive = std::min(k.receive, parts.receive_alone.wall_s);
  k.write = std::min(k.write, parts.write_alone.wall_s);
  return sum_of(c, k);
}

Floor floor_of(const Counts& average, const std::vector<Counts>& members, const FloorParts& parts,
               const Timing& write) {
  Floor f;
  f.machine = machine_bound(average, parts, write);
  for (const Counts& c : members) f.path = std::max(f.path, path_bound(c, parts, write));
  f.seconds = std::max(f.machine, f.path);
  return f;
}

}  // namespace

Floor encode_floor(const redset::Set& set, int k, const FloorParts& parts, const Timing& write) {
  const double p = set.ranks();
  // Per protected byte: bytes sent to other members (as many received),
  // bytes of redundancy written. Every member does the same.
  Counts c;
  switch (set.scheme()) {
    case redset::Scheme::single: break;
    case redset::Scheme::partner: c.received = c.written = k; break;  // k replicas
    case redset::Scheme::xor_code: c.received = 1; c.written = 1 / (p - 1); break;
    case redset::Scheme::rs: c.received = 1 + (k - 1) / (p - k); c.written = k / (p - k); c.coded = 1; break;
  }
  // The ring XORs at its p-2 middle steps of p-1 chunks: the first sends a
  // chunk as it is, the last keeps what arrives.
  if (set.scheme() == redset::Scheme::xor_code) c.xored = (p - 2) / (p - 1);
  return floor_of(c, {c}, parts, write);
}

namespace {

// What each member of a set moves in a rebuild, the lost ones being the
// first `lost` (as the benchmark loses them), with the set's average.
struct RebuildCounts {
  Counts average;
  std::vector<Counts> members;
};

RebuildCounts partner_rebuild_counts(int members, int replicas, int lost) {
  const double p = members, m = lost, r = replicas;
  RebuildCounts rc;
  // A lost member gets its own files from a replica (read by its holder)
  // and the r replicas it held from their owners (read for their check
  // anyway), receives them, writes them and checks them. A survivor checks
  // its files.
  rc.average.received = rc.average.written = m * (1 + r) / p;
  for (int i = 0; i < members; ++i) {
    Counts c;
    if (i < lost) {
      c.read = 0;
      c.crc = c.received = c.written = 1 + r;
    }
    rc.members.push_back(c);
  }
  return rc;
}

RebuildCounts xor_rebuild_counts(int members) {
  const double p = members;
  RebuildCounts rc;
  // The survivors read their p symbols (D and their check chunk, D/(p-1)),
  // p-1 of them: D per member of the set. The reduction to the lost member
  // sends every symbol once and XORs at p-2 of the p-1 steps of each
  // stripe; the lost member writes its p symbols.
  rc.average.received = 1;
  rc.average.xored = (p - 2) / (p - 1);
  rc.average.written = 1 / (p - 1);
  // Member 0 is lost and roots every chain; member 1 starts every chain and
  // receives nothing; every other member receives, XORs and passes on a
  // chunk of each of the p stripes.
  const double stripes = p / (p - 1);
  for (int i = 0; i < members; ++i) {
    Counts c;
    c.read = stripes;
    if (i == 0) {
      c.read = 0;
      c.received = c.written = c.crc = stripes;
    } else if (i > 1) {
      c.received = c.xored = stripes;
    }
    rc.members.push_back(c);
  }
  return rc;
}

Result<RebuildCounts> rs_rebuild_counts(int members, int k, int lost) {
  const double p = members, m = lost;
  std::vector<int> gone;
  for (int i = 0; i < lost; ++i) gone.push_back(i);
  SCR_ASSIGN_OR_RETURN(auto jobs, redset::rebuild_jobs(members, k, gone));
  // In chunks c = D/(p-k). The survivors read all their data (for the
  // check) and the check symbols a job takes as sources; sources away from
  // the job's gatherer, and every lost symbol, are sent. Each job turns p-k
  // source pieces (D bytes) into m lost ones where the encode made k.
  const double chunk = 1 / (p - k);
  RebuildCounts rc;
  rc.members.resize(static_cast<size_t>(members));
  for (int i = 0; i < members; ++i) {
    Counts& c = rc.members[static_cast<size_t>(i)];
    c.received = 0;
    if (i < lost) c.read = c.crc = 0;
  }
  double check_sources = 0, sends = 0;
  for (const auto& job : jobs) {
    Counts& gatherer = rc.members[static_cast<size_t>(job.gatherer)];
    gatherer.coded += m / k;
    for (const auto& src : job.sources) {
      if (src.symbol.kind == redset::Symbol::Kind::check) {
        ++check_sources;
        rc.members[static_cast<size_t>(src.member)].read += chunk;
      }
      if (src.member != job.gatherer) {
        ++sends;
        gatherer.received += chunk;
      }
    }
    for (const auto& out : job.outputs) {
      Counts& owner = rc.members[static_cast<size_t>(out.member)];
      owner.written += chunk;
      owner.crc += chunk;
      if (out.member != job.gatherer) {
        ++sends;
        owner.received += chunk;
      }
    }
  }
  rc.average.read = ((p - m) * (p - k) + check_sources) * chunk / p;
  rc.average.received = sends * chunk / p;
  rc.average.written = m * p * chunk / p;
  rc.average.coded = m / k;
  return rc;
}

}  // namespace

Floor rebuild_floor(const redset::Set& set, int k, int lost, const FloorParts& parts,
                    const Timing& write) {
  const int members = set.ranks();
  // Every member checks all of its files: the survivors the ones they keep,
  // the lost members the ones they get back.
  RebuildCounts rc;
  switch (set.scheme()) {
    case redset::Scheme::single:
      rc.average.read = static_cast<double>(members - lost) / members;
      rc.members.push_back(Counts{});
      break;
    case redset::Scheme::partner: rc = partner_rebuild_counts(members, k, lost); break;
    case redset::Scheme::xor_code: rc = xor_rebuild_counts(members); break;
    case redset::Scheme::rs: {
      auto got = rs_rebuild_counts(members, k, lost);
      if (!got.ok()) return Floor{};
      rc = std::move(*got);
      break;
    }
  }
  return floor_of(rc.average, rc.members, parts, write);
}

}  // namespace scr::bench
