#pragma once
// `corbin fl` over MPI (built with CORBIN_WITH_MPI): the clients are spread over the ranks in
// contiguous blocks, and rank 0 is also the server. Each round:
//   - rank 0 broadcasts the global model and the clients' training seeds; every rank trains its
//     own clients;
//   - every rank draws the round's public roles (who drops, who is alone, which pairs) from (seed,
//     round), as rank 0 does; the pair protocol's messages go from their sender's rank to rank 0,
//     whose Relay counts them exactly as the in-process relay does and forwards them to the
//     recipient's rank (phase by phase: fl/protocol.hpp's MessageBus);
//   - each rank obfuscates its own survivors, each end of a pair with its own weights, secrets
//     and Z, and sends rank 0 the obfuscated updates, the pairs' elected roles, and (for the
//     simulator's diagnostics only: the empirical MSE and the live check) the clients' weights;
//   - rank 0 aggregates in the round's fixed summation order (fl/mechanism.hpp: aggregate_round),
//     so that every K gives the single process's bits.
// A failure on one rank (bad input, a NaN weight, a full disk on rank 0) is agreed on by all:
// each raises RankFailure with the failing rank's line, and rank 0 alone prints it. A rank that
// dies outright is mpirun's to detect: it ends the job.

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "corbin/fl/clients.hpp"

namespace corbin::fl::mpi {

/// Whether MPI was initialised (a Session exists).
bool active();

/// MPI for the process's lifetime (MPI_Init, MPI_Finalize).
class Session {
 public:
  Session(int& argc, char**& argv);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();
};

/// The world: K ranks, this rank, n clients; rank r holds clients [first(r), first(r + 1)). Needs
/// no MPI: a single process is the one rank holding all (the CLI builds its block from it either way).
struct Layout {
  int ranks = 1, rank = 0;
  std::size_t clients = 0;
  std::size_t first(int r) const { return clients * static_cast<std::size_t>(r) / static_cast<std::size_t>(ranks); }
  std::size_t held() const { return first(rank + 1) - first(rank); }
  int owner(std::size_t client) const {
    int r = 0;
    while (r + 1 < ranks && first(r + 1) <= client) ++r;
    return r;
  }
};
/// MPI_COMM_WORLD's size and rank, with no clients yet.
Layout world();

/// One rank's failure, as every rank learns it.
struct RankFailure : std::runtime_error {
  RankFailure(int status, int rank, const std::string& line) : std::runtime_error(line), status(status), rank(rank) {}
  int status;  ///< the exit status the failing rank's error maps to
  int rank;
};

/// How the caller turns an exception into (exit status, one line): the CLI's, which knows its options.
using Describe = std::function<std::pair<int, std::string>(std::exception_ptr)>;

/// Collective: every rank says whether it failed (`error` null: no). When one did, every rank
/// raises RankFailure carrying the lowest failing rank's status and line.
void agree(const Layout& layout, std::exception_ptr error, const Describe& describe);

/// Bytes this rank sent and received over MPI in the last round, per rank (rank 0's view).
struct RoundBytes {
  std::vector<std::uint64_t> sent, received;
};

/// Rank 0's clients: the server's side of the protocol above, over `local` (its own block).
/// finish() releases the other ranks (status: the run's exit status).
class MpiClients : public Clients {
 public:
  MpiClients(std::unique_ptr<Clients> local, Layout layout, Describe describe);
  std::size_t count() const override { return layout_.clients; }
  void train(const std::vector<float>& global, const std::vector<std::uint64_t>& seeds) override;
  RoundResult obfuscate(const std::vector<float>& global, const std::vector<Layer>& layers,
                        const MechanismConfig& mechanism, std::uint64_t round, SampledWeights* sampled) override;
  std::vector<std::vector<float>> trained() const override;
  void finish(int status);
  const RoundBytes& last_round_bytes() const { return bytes_; }

 private:
  std::unique_ptr<Clients> local_;
  Layout layout_;
  Describe describe_;
  std::vector<float> global_;
  RoundBytes bytes_;
  bool finished_ = false;
};

/// Ranks > 0: serve rank 0's commands with `local` (this rank's block) until it finishes the run;
/// returns the run's exit status. Raises RankFailure when a rank failed.
int serve(Clients& local, const Layout& layout, const std::vector<Layer>& layers, const MechanismConfig& mechanism,
          std::size_t parameters, const Describe& describe);

}  // namespace corbin::fl::mpi
