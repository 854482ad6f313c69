#include "corbin/fl/mpi_clients.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>

#include "corbin/fl/mechanism.hpp"
#include "corbin/number/error.hpp"

namespace corbin::fl::mpi {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// MPI counts are ints: a buffer goes in pieces of at most 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;

/// Byte counters of the current round (this rank's).
struct Counters {
  std::uint64_t sent = 0, received = 0;
} counters;

void send_bytes(int to, const Bytes& bytes) {
  const std::uint64_t size = bytes.size();
  MPI_Send(&size, 1, MPI_UINT64_T, to, 0, MPI_COMM_WORLD);
  for (std::size_t at = 0; at < bytes.size(); at += kPiece)
    MPI_Send(bytes.data() + at, static_cast<int>(std::min(kPiece, bytes.size() - at)), MPI_BYTE, to, 0, MPI_COMM_WORLD);
  counters.sent += size;
}

Bytes receive_bytes(int from) {
  std::uint64_t size = 0;
  MPI_Recv(&size, 1, MPI_UINT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Bytes bytes(size);
  for (std::size_t at = 0; at < bytes.size(); at += kPiece)
    MPI_Recv(bytes.data() + at, static_cast<int>(std::min(kPiece, bytes.size() - at)), MPI_BYTE, from, 0,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  counters.received += size;
  return bytes;
}

/// Broadcasts `count` bytes at `data` from rank 0 (counted on both ends).
void broadcast(void* data, std::size_t count, const Layout& layout) {
  auto* bytes = static_cast<std::uint8_t*>(data);
  for (std::size_t at = 0; at < count; at += kPiece)
    MPI_Bcast(bytes + at, static_cast<int>(std::min(kPiece, count - at)), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (layout.rank == 0) counters.sent += count * static_cast<std::uint64_t>(layout.ranks - 1);
  else counters.received += count;
}

/// Appends and reads plain values and arrays (the ranks share one architecture).
struct Writer {
  Bytes out;
  template <class T>
  void put(const T& x) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&x);
    out.insert(out.end(), p, p + sizeof x);
  }
  template <class T>
  void put_array(const T* data, std::size_t count) {
    put<std::uint64_t>(count);
    const auto* p = reinterpret_cast<const std::uint8_t*>(data);
    out.insert(out.end(), p, p + count * sizeof(T));
  }
};

struct Reader {
  const Bytes& in;
  std::size_t at = 0;
  template <class T>
  T get() {
    if (at + sizeof(T) > in.size()) throw std::logic_error("mpi: a message shorter than its contents");
    T x;
    std::memcpy(&x, in.data() + at, sizeof x);
    at += sizeof x;
    return x;
  }
  template <class T>
  std::vector<T> get_array() {
    const auto count = get<std::uint64_t>();
    if (at + count * sizeof(T) > in.size()) throw std::logic_error("mpi: a message shorter than its contents");
    std::vector<T> out(count);
    std::memcpy(out.data(), in.data() + at, count * sizeof(T));
    at += count * sizeof(T);
    return out;
  }
  bool done() const { return at == in.size(); }
};

/// The pair protocol's messages through rank 0: a phase's messages go to rank 0, whose Relay
/// counts them (and lets its in-transit hook see them) and forwards each to its recipient's rank.
class MpiBus : public MessageBus {
 public:
  MpiBus(const Layout& layout, Relay* relay) : layout_(layout), relay_(relay) {}

  void send(std::size_t from, std::size_t to, Purpose purpose, Bytes bytes) override {
    outbox_.push_back({from, to, purpose, std::move(bytes)});
  }

  void deliver() override {
    if (layout_.rank != 0) {
      send_bytes(0, encode(outbox_));
      outbox_.clear();
      take(decode(receive_bytes(0)));
      return;
    }
    std::vector<std::vector<Message>> routed(static_cast<std::size_t>(layout_.ranks));
    for (int r = 0; r < layout_.ranks; ++r) {
      std::vector<Message> messages = r == 0 ? std::move(outbox_) : decode(receive_bytes(r));
      for (Message& m : messages) {
        relay_->send(m.from, m.to, m.purpose, std::move(m.bytes));
        m.bytes = relay_->receive(m.to, m.from);
        routed[static_cast<std::size_t>(layout_.owner(m.to))].push_back(std::move(m));
      }
    }
    outbox_.clear();
    for (int r = 1; r < layout_.ranks; ++r) send_bytes(r, encode(routed[static_cast<std::size_t>(r)]));
    take(std::move(routed[0]));
  }

  Bytes receive(std::size_t to, std::size_t from) override {
    auto& queue = inbox_[{from, to}];
    if (queue.empty()) throw std::logic_error("relay: no message from " + std::to_string(from));
    Bytes out = std::move(queue.front());
    queue.pop_front();
    return out;
  }

 private:
  struct Message {
    std::size_t from, to;
    Purpose purpose;
    Bytes bytes;
  };
  static Bytes encode(const std::vector<Message>& messages) {
    Writer w;
    for (const Message& m : messages) {
      w.put<std::uint64_t>(m.from);
      w.put<std::uint64_t>(m.to);
      w.put<std::uint8_t>(static_cast<std::uint8_t>(m.purpose));
      w.put_array(m.bytes.data(), m.bytes.size());
    }
    return std::move(w.out);
  }
  static std::vector<Message> decode(const Bytes& bytes) {
    Reader r{bytes};
    std::vector<Message> out;
    while (!r.done()) {
      Message m;
      m.from = r.get<std::uint64_t>();
      m.to = r.get<std::uint64_t>();
      m.purpose = static_cast<Purpose>(r.get<std::uint8_t>());
      m.bytes = r.get_array<std::uint8_t>();
      out.push_back(std::move(m));
    }
    return out;
  }
  void take(std::vector<Message> messages) {
    for (Message& m : messages) inbox_[{m.from, m.to}].push_back(std::move(m.bytes));
  }

  Layout layout_;
  Relay* relay_;
  std::vector<Message> outbox_;
  std::map<std::pair<std::size_t, std::size_t>, std::deque<Bytes>> inbox_;
};

enum class Command : std::int32_t { train = 1, obfuscate = 2, finish = 3 };

struct Header {
  Command command;
  std::int32_t status;  ///< finish: the run's exit status
  std::uint64_t round;
};

/// Runs `work`; every rank learns whether any failed (agree).
template <class F>
void agreed(const Layout& layout, const Describe& describe, F&& work) {
  std::exception_ptr error;
  try {
    work();
  } catch (...) {
    error = std::current_exception();
  }
  agree(layout, error, describe);
}

/// What rank 0 gathers in a round: the training's weights of every client (by client) and each
/// survivor's obfuscated vector, and the pairs' elected leaders.
struct Gathered {
  std::vector<std::vector<float>> weights, sent;
  std::map<std::size_t, std::size_t> leader_of_pair;  ///< drawn pair index → leader
};

/// The round's mechanism, collectively (every rank calls it with its own block's trained
/// weights); rank 0 gets the result.
std::optional<RoundResult> distributed_round(const Layout& layout, std::vector<std::vector<float>> held,
                                             const std::vector<float>& global, const std::vector<Layer>& layers,
                                             const MechanismConfig& config, std::uint64_t round,
                                             SampledWeights* sampled, const Describe& describe) {
  const std::size_t n = layout.clients, first = layout.first(layout.rank);
  std::vector<const float*> weights(n, nullptr);
  RoundRoles roles;
  agreed(layout, describe, [&] {
    for (std::size_t k = 0; k < held.size(); ++k) {
      check_weights(held[k], first + k, global.size());
      weights[first + k] = held[k].data();
    }
    roles = draw_roles(n, config, round);
  });
  // The protocol's phases are collective: a failure inside them cannot be agreed on, and ends
  // the job (MPI_Abort) after one line.
  Relay relay(n);
  MpiBus bus(layout, layout.rank == 0 ? &relay : nullptr);
  std::vector<PairChannel> channels;
  try {
    channels = establish_pairs(roles.pairs, layers, config.bits, config.protocol, config.seed, round, bus,
                               [&](std::size_t i) { return weights[i] != nullptr; });
  } catch (const std::exception& e) {
    // stderr itself: the CLI silences std::cerr on ranks > 0.
    std::fprintf(stderr, "corbin: rank %d: the pair protocol failed: %s\n", layout.rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  RoundPlan mine;
  mine.alone = roles.alone;
  mine.channels = channels;
  std::vector<std::vector<float>> sent;
  agreed(layout, describe, [&] { sent = obfuscate_held(mine, weights, global, layers, config, round); });
  // To rank 0: each held client's weights and update, and the leaders this rank's ends elected.
  Writer w;
  for (std::size_t k = 0; k < held.size(); ++k) {
    w.put<std::uint64_t>(first + k);
    w.put_array(held[k].data(), held[k].size());
    w.put_array(sent[first + k].data(), sent[first + k].size());
  }
  w.put<std::uint64_t>(~std::uint64_t{0});
  for (const PairChannel& c : channels) {
    const auto drawn = std::find_if(roles.pairs.begin(), roles.pairs.end(), [&](const auto& p) {
      return (p.first == c.leader && p.second == c.follower) || (p.first == c.follower && p.second == c.leader);
    });
    w.put<std::uint64_t>(static_cast<std::uint64_t>(drawn - roles.pairs.begin()));
    w.put<std::uint64_t>(c.leader);
  }
  if (layout.rank != 0) {
    send_bytes(0, w.out);
    return std::nullopt;
  }
  Gathered all;
  all.weights.resize(n);
  all.sent.resize(n);
  for (int r = 0; r < layout.ranks; ++r) {
    const Bytes bytes = r == 0 ? std::move(w.out) : receive_bytes(r);
    Reader in{bytes};
    for (std::uint64_t i; (i = in.get<std::uint64_t>()) != ~std::uint64_t{0};) {
      all.weights.at(i) = in.get_array<float>();
      all.sent.at(i) = in.get_array<float>();
    }
    while (!in.done()) {
      const auto p = in.get<std::uint64_t>();
      all.leader_of_pair[p] = in.get<std::uint64_t>();
    }
  }
  std::vector<PairChannel> elected(roles.pairs.size());
  for (std::size_t p = 0; p < roles.pairs.size(); ++p) {
    const auto [i, j] = roles.pairs[p];
    elected[p].leader = all.leader_of_pair.at(p);
    elected[p].follower = elected[p].leader == i ? j : i;
  }
  const RoundPlan plan = complete_plan(roles, std::move(elected), layers, config, relay);
  std::vector<const float*> pointers(n);
  for (std::size_t i = 0; i < n; ++i) pointers[i] = all.weights[i].data();
  RoundResult result = aggregate_round(plan, all.sent, pointers, global, layers, config);
  if (sampled) *sampled = sample_weights(all.weights, std::move(sampled->coordinates));
  return result;
}

/// Every rank's byte counters to rank 0 (after the round), then reset.
RoundBytes collect_bytes(const Layout& layout) {
  const std::uint64_t mine[2] = {counters.sent, counters.received};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(layout.ranks));
  MPI_Gather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  counters = {};
  RoundBytes out;
  for (int r = 0; r < layout.ranks; ++r) {
    out.sent.push_back(all[2 * static_cast<std::size_t>(r)]);
    out.received.push_back(all[2 * static_cast<std::size_t>(r) + 1]);
  }
  return out;
}

/// Tests only: CORBIN_TEST_FAIL_RANK = "r:k" makes rank r (> 0) fail in the k-th round it trains
/// (0-based, counted from its start), as a rank whose training raised would.
void fail_for_test(const Layout& layout, unsigned long call) {
  const char* hook = std::getenv("CORBIN_TEST_FAIL_RANK");
  if (hook == nullptr) return;
  int rank = -1;
  unsigned long at = 0;
  if (std::sscanf(hook, "%d:%lu", &rank, &at) == 2 && rank == layout.rank && at == call)
    throw std::runtime_error("the test hook CORBIN_TEST_FAIL_RANK stopped this rank in its round " + std::to_string(call));
}

}  // namespace

bool active() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  return initialised != 0;
}

Session::Session(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
Session::~Session() { MPI_Finalize(); }

Layout world() {
  Layout l;
  MPI_Comm_size(MPI_COMM_WORLD, &l.ranks);
  MPI_Comm_rank(MPI_COMM_WORLD, &l.rank);
  return l;
}

void agree(const Layout& layout, std::exception_ptr error, const Describe& describe) {
  const int mine = error ? layout.rank : layout.ranks;
  int lowest = layout.ranks;
  MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (lowest == layout.ranks) return;
  // The lowest failing rank's status and line, to every rank.
  std::int32_t status = 0;
  Bytes line;
  if (layout.rank == lowest) {
    auto [s, text] = describe(error);
    status = s;
    if (lowest != 0) text = "rank " + std::to_string(lowest) + ": " + text;
    line.assign(text.begin(), text.end());
  }
  std::uint64_t size = line.size();
  MPI_Bcast(&status, 1, MPI_INT32_T, lowest, MPI_COMM_WORLD);
  MPI_Bcast(&size, 1, MPI_UINT64_T, lowest, MPI_COMM_WORLD);
  line.resize(size);
  MPI_Bcast(line.data(), static_cast<int>(size), MPI_BYTE, lowest, MPI_COMM_WORLD);
  throw RankFailure(status, lowest, std::string(line.begin(), line.end()));
}

MpiClients::MpiClients(std::unique_ptr<Clients> local, Layout layout, Describe describe)
    : local_(std::move(local)), layout_(layout), describe_(std::move(describe)) {}

void MpiClients::train(const std::vector<float>& global, const std::vector<std::uint64_t>& seeds) {
  Header h{Command::train, 0, 0};
  broadcast(&h, sizeof h, layout_);
  std::vector<std::uint64_t> all = seeds;
  broadcast(all.data(), all.size() * sizeof(std::uint64_t), layout_);
  global_ = global;
  broadcast(global_.data(), global_.size() * sizeof(float), layout_);
  const std::vector<std::uint64_t> mine(seeds.begin(), seeds.begin() + static_cast<std::ptrdiff_t>(layout_.held()));
  agreed(layout_, describe_, [&] { local_->train(global_, mine); });
}

RoundResult MpiClients::obfuscate(const std::vector<float>& global, const std::vector<Layer>& layers,
                                  const MechanismConfig& mechanism, std::uint64_t round, SampledWeights* sampled) {
  if (global != global_) throw std::logic_error("mpi: the round's model differs from the one its clients trained from");
  Header h{Command::obfuscate, 0, round};
  broadcast(&h, sizeof h, layout_);
  auto result = distributed_round(layout_, local_->trained(), global, layers, mechanism, round, sampled, describe_);
  bytes_ = collect_bytes(layout_);
  return std::move(*result);
}

std::vector<std::vector<float>> MpiClients::trained() const {
  throw std::logic_error("mpi: the clients' weights stay on their ranks");
}

void MpiClients::finish(int status) {
  if (finished_) return;
  finished_ = true;
  Header h{Command::finish, status, 0};
  broadcast(&h, sizeof h, layout_);
}

int serve(Clients& local, const Layout& layout, const std::vector<Layer>& layers, const MechanismConfig& mechanism,
          std::size_t parameters, const Describe& describe) {
  std::vector<float> global(parameters);
  std::vector<std::uint64_t> seeds(layout.clients);
  unsigned long trained_rounds = 0;
  for (;;) {
    Header h{};
    broadcast(&h, sizeof h, layout);
    switch (h.command) {
      case Command::train: {
        broadcast(seeds.data(), seeds.size() * sizeof(std::uint64_t), layout);
        broadcast(global.data(), global.size() * sizeof(float), layout);
        const auto from = seeds.begin() + static_cast<std::ptrdiff_t>(layout.first(layout.rank));
        const std::vector<std::uint64_t> mine(from, from + static_cast<std::ptrdiff_t>(layout.held()));
        agreed(layout, describe, [&] {
          fail_for_test(layout, trained_rounds++);
          local.train(global, mine);
        });
        break;
      }
      case Command::obfuscate:
        distributed_round(layout, local.trained(), global, layers, mechanism, h.round, nullptr, describe);
        collect_bytes(layout);
        break;
      case Command::finish: return h.status;
      default: throw std::logic_error("mpi: an unknown command from rank 0");
    }
  }
}

}  // namespace corbin::fl::mpi
