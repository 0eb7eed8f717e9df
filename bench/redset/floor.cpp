#include "floor.hpp"

#include <unistd.h>

#include <algorithm>
#include <vector>

#include "common/crc32c.hpp"
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
// ahead the same bytes took 40-55% longer), and its waits, which spin
// briefly and then sleep.
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
    sends.wait(s);
    sends.isend(s, comm, out[s].data(), len(u), right, kTag);
    recvs.wait(s);
    sink = in[s].data()[0];
    if (u + kAhead < count) post(u + kAhead);
  }
  sends.wait_all();
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

// Bytes each part moves per rank, in units of the checkpoint's size D, on
// average over the set's members: `read` from the member's files, `crc`
// checksummed (what was read and what was received).
struct Counts {
  double read = 1, crc = 1, sent = 0, written = 0, xored = 0, coded = 0;
};

// The smaller of the sum of the parts' wall times and of their CPU times
// spread over the machine's cores, each part scaled by its count.
double floor_of(const Counts& c, const FloorParts& parts, const Timing& write) {
  // Bytes read from the files and checksummed are taken in one pass (viewed
  // and checked, or read into a buffer and checked there); the rest of the
  // reads are views alone, the rest of the checksums run from the caches.
  const double checked_as_read = std::min(c.read, c.crc);
  auto sum = [&](double Timing::*of) {
    double read = std::min(parts.view.*of, parts.read.*of);
    double pass = std::min(parts.check.*of, parts.read.*of + parts.crc.*of);
    return checked_as_read * pass + (c.read - checked_as_read) * read +
           (c.crc - checked_as_read) * (parts.crc.*of) + c.sent * (parts.send.*of) +
           c.written * (write.*of) + c.xored * (parts.xor_.*of) + c.coded * (parts.code.*of);
  };
  double cores = static_cast<double>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  return std::min(sum(&Timing::wall_s), sum(&Timing::cpu_s) / cores);
}

}  // namespace

double floor_seconds(const redset::Set& set, int k, const FloorParts& parts, const Timing& write) {
  const double p = set.ranks();
  // Per protected byte: bytes sent to other members, bytes of redundancy written.
  Counts c;
  switch (set.scheme()) {
    case redset::Scheme::single: break;
    case redset::Scheme::partner: c.sent = c.written = k; break;       // k replicas
    case redset::Scheme::xor_code: c.sent = 1; c.written = 1 / (p - 1); break;
    case redset::Scheme::rs: c.sent = 1 + (k - 1) / (p - k); c.written = k / (p - k); c.coded = 1; break;
  }
  // The ring XORs at its p-2 middle steps of p-1 chunks: the first sends a
  // chunk as it is, the last keeps what arrives.
  if (set.scheme() == redset::Scheme::xor_code) c.xored = (p - 2) / (p - 1);
  return floor_of(c, parts, write);
}

double rebuild_floor_seconds(const redset::Set& set, int k, int lost, const FloorParts& parts,
                             const Timing& write) {
  const int members = set.ranks();
  const double p = members, m = lost;
  // Every member checks all of its files: the survivors the ones they keep,
  // the lost members the ones they get back.
  Counts c;
  switch (set.scheme()) {
    case redset::Scheme::single: c.read = (p - m) / p; break;
    case redset::Scheme::partner:
      // A lost member gets its own files from a replica (read by its holder)
      // and the k replicas it held from their owners (read for their check
      // anyway): (1 + k) D sent to it and written by it.
      c.sent = c.written = m * (1 + k) / p;
      break;
    case redset::Scheme::xor_code:
      // The survivors read their p symbols (D and their check chunk, D/(p-1)),
      // p-1 of them: D per member of the set. The reduction to the lost
      // member sends every symbol once and XORs at p-2 of the p-1 steps of
      // each stripe; the lost member writes its p symbols.
      c.sent = 1;
      c.xored = (p - 2) / (p - 1);
      c.written = 1 / (p - 1);
      break;
    case redset::Scheme::rs: {
      // As the rebuild's stripe jobs move them: the survivors read all their
      // data (for the check) and the check symbols a job takes as sources;
      // sources away from the job's gatherer, and every lost symbol, are sent.
      std::vector<int> gone;
      for (int i = 0; i < lost; ++i) gone.push_back(i);
      auto jobs = redset::rebuild_jobs(members, k, gone);
      if (!jobs.ok()) return 0;
      double check_sources = 0, sends = 0;
      for (const auto& job : *jobs) {
        for (const auto& src : job.sources) {
          if (src.symbol.kind == redset::Symbol::Kind::check) ++check_sources;
          if (src.member != job.gatherer) ++sends;
        }
        for (const auto& out : job.outputs)
          if (out.member != job.gatherer) ++sends;
      }
      // In chunks c = D/(p-k), averaged over the p members.
      const double chunk = 1 / (p - k);
      c.read = ((p - m) * (p - k) + check_sources) * chunk / p;
      c.sent = sends * chunk / p;
      c.written = m * p * chunk / p;
      // Each job turns p-k source pieces into m lost ones where the encode
      // made k: D source bytes per member, m rows instead of k.
      c.coded = m / k;
      break;
    }
  }
  return floor_of(c, parts, write);
}

}  // namespace scr::bench
