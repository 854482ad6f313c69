#pragma once
// Alg. 3's pairwise channel as a deployment runs it, message by message through the server,
// which relays opaque bytes and counts them.
//
// For each pair (i, j) the server drew:
//   1. key agreement: each client makes an ephemeral X25519 key pair and sends its public key (32
//      bytes) to the server, which relays it to the partner; both derive two direction keys with
//      libsodium's crypto_kx (BLAKE2b-512 of the shared point and both public keys). Only the
//      partner's key is relayed: the pairing is drawn first, so the other n − 2 keys of Alg. 3's
//      all-pairs exchange would never be used.
//   2. leader election (Alg. 3, lines 5–13): each sends a private fair bit Y encrypted with
//      ChaCha20-Poly1305 (IETF; 1 byte + 16-byte tag); equal bits make the smaller index the
//      leader, different bits the larger.
//   3. Z: either the leader draws it and sends it encrypted (line 17: ⌈d·m/8⌉ bytes + tag), or
//      both derive it from their agreed key with a keyed BLAKE2b and expand it with ChaCha20 (no
//      traffic). Either way the server never sees Z.
// Nonces are message counters: each direction has its own key, and keys are fresh each round.
//
// Secrets (secret keys, Y, Z, the clients' private coins) are drawn from the run's seed by keyed
// BLAKE2b (reproducible; `Entropy::seeded`) or from the operating system (`Entropy::os`, as a
// deployment would; not reproducible). None of them leaves this module except a pair's Z and the
// clients' private coin keys, which the quantizer needs.

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "corbin/fl/layer.hpp"
#include "corbin/quantizer/keystream.hpp"

namespace corbin::fl {

enum class ZTransport { encrypted, derived };
ZTransport parse_z_transport(const std::string& text);  ///< raises invalid_argument(z_transport)
const char* to_string(ZTransport t);

enum class Entropy { seeded, os };
Entropy parse_entropy(const std::string& text);  ///< raises invalid_argument(entropy)
const char* to_string(Entropy e);

/// Bytes one client sent (up) and received (down) in a round, by purpose.
struct Traffic {
  std::uint64_t model_down = 0;     ///< global model, c and r per layer, partner index
  std::uint64_t key_up = 0, key_down = 0;
  std::uint64_t election_up = 0, election_down = 0;
  std::uint64_t z_up = 0, z_down = 0;
  std::uint64_t update_up = 0;      ///< the obfuscated update
  std::uint64_t up() const { return key_up + election_up + z_up + update_up; }
  std::uint64_t down() const { return model_down + key_down + election_down + z_down; }
};

/// How a pair's messages travel: the protocol sends a phase's messages, then `deliver()`, then
/// receives what they carried. In one process that is the Relay itself; under MPI the clients sit
/// on several processes and rank 0's Relay forwards them (fl/mpi_clients.hpp).
class MessageBus {
 public:
  enum class Purpose { key, election, z };
  virtual ~MessageBus() = default;
  virtual void send(std::size_t from, std::size_t to, Purpose purpose, std::vector<std::uint8_t> bytes) = 0;
  /// Ends a phase: every message sent so far reaches its recipient's queue.
  virtual void deliver() {}
  /// The oldest message from `from` to `to`; raises std::logic_error if there is none.
  virtual std::vector<std::uint8_t> receive(std::size_t to, std::size_t from) = 0;
};

/// The server: forwards opaque messages between clients and counts every byte.
class Relay : public MessageBus {
 public:
  explicit Relay(std::size_t clients);
  void send(std::size_t from, std::size_t to, Purpose purpose, std::vector<std::uint8_t> bytes) override;
  std::vector<std::uint8_t> receive(std::size_t to, std::size_t from) override;
  /// The server's own broadcast and the clients' uploads (counted, not relayed).
  void count_model_download(std::size_t to, std::uint64_t bytes) { traffic_.at(to).model_down += bytes; }
  void count_update_upload(std::size_t from, std::uint64_t bytes) { traffic_.at(from).update_up += bytes; }
  const std::vector<Traffic>& traffic() const { return traffic_; }
  /// Called on every relayed message in transit (what the server, or anyone on its links, sees
  /// and may alter): tests use it to look for secrets in the clear and to tamper.
  std::function<void(Purpose, std::vector<std::uint8_t>&)> in_transit;

 private:
  std::vector<Traffic> traffic_;
  std::map<std::pair<std::size_t, std::size_t>, std::deque<std::vector<std::uint8_t>>> queues_;
};

struct ProtocolConfig {
  ZTransport transport = ZTransport::encrypted;
  Entropy entropy = Entropy::seeded;
};

/// A client's secret for a purpose in a round: from `seed` (seeded) or the OS (os).
Key client_secret(const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round, std::size_t client,
                  const std::string& purpose);

/// What a pair holds once its channel is set up.
struct PairChannel {
  std::size_t leader = 0, follower = 0;
  Key z_key{};  ///< derived transport: the key both expand Z from (stream = layer index)
  std::vector<std::vector<std::uint8_t>> z;  ///< encrypted transport: Z per layer, as the follower decrypted it
};

/// Steps 1–3 above for each pair (unordered: the election orders it), over `relay`, with d = bits
/// shared bits per parameter. `layers` sizes Z (one stream per layer, CorbinqPairSampler's packed
/// layout).
std::vector<PairChannel> establish_pairs(const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                         const std::vector<Layer>& layers, unsigned bits,
                                         const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round,
                                         Relay& relay);

/// The same steps, phase by phase over every pair, run by the ends this process holds (`holds`:
/// client → here?) over `bus`. Returns a channel for each pair with an end held here, in `pairs`'
/// order: leader and follower as the held end elected them, and the Z it holds (the follower's as
/// decrypted, the leader's as drawn; the same bytes). The other pairs' entries are absent.
std::vector<PairChannel> establish_pairs(const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                         const std::vector<Layer>& layers, unsigned bits,
                                         const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round,
                                         MessageBus& bus, const std::function<bool(std::size_t)>& holds);

}  // namespace corbin::fl
