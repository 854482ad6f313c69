#pragma once
// Work spread over threads as the PLD builders spread it (the family's envelopes, the multisets'
// subtrees, the adaptive program's slices): how many threads, and a run of work(t) for every t
// that rethrows the first failure in thread order once all have finished. The workers compute at
// the caller's working precision and exponent range (WorkerNumerics, number/interval.hpp).

#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "corbin/number/interval.hpp"

namespace corbin {

/// `requested` threads (0: the hardware's, at most 8), never more than `items` (at least 1).
inline unsigned thread_count(std::size_t items, unsigned requested) {
  const unsigned wanted = requested ? requested : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(items, wanted)));
}

/// work(0) on this thread, work(1) … work(threads − 1) on their own; none may change the
/// working precision.
template <class Work>
void run_on_threads(unsigned threads, const Work& work) {
  std::vector<std::exception_ptr> failed(threads);
  const WorkerNumerics numerics;
  const auto guarded = [&](unsigned t) {
    try {
      if (t > 0) numerics.enter();
      work(t);
    } catch (...) {
      failed[t] = std::current_exception();
    }
  };
  {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(guarded, t);
    guarded(0);
    for (std::thread& th : pool) th.join();
  }
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace corbin
