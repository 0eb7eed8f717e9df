// The heap one thread holds: this program replaces the global operator new
// and delete so that allocations made by the thread marked with
// count_this_thread() are counted while they live, wherever they are freed.
// The scale benchmark marks rank 0's thread, so "rank 0's memory" is what
// SCR++ code on rank 0 allocated and still holds: its runtime, its filemaps,
// what it gathered from the other ranks. Messages other ranks send to it are
// allocated by their senders (the in-process fabric copies on send) and are
// not counted until rank 0 copies or decodes them. Unlike the process's
// resident size or mallinfo, this separates rank 0 from the thousands of
// other ranks sharing the process.
#pragma once

#include <cstdint>

namespace scr::bench {

// From now on, this thread's allocations are counted (one thread at a time).
void count_this_thread();
// Bytes allocated by the counted thread and not yet freed.
int64_t counted_live_bytes();
// The most counted_live_bytes() has been since the last reset_counted_peak().
int64_t counted_peak_bytes();
void reset_counted_peak();

}  // namespace scr::bench
