#include "corbin/fl/protocol.hpp"

#include <sodium.h>

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>

#include "corbin/number/error.hpp"
#include "corbin/quantizer/sampler.hpp"

namespace corbin::fl {
namespace {

using Bytes = std::vector<std::uint8_t>;

/// The 96-bit nonce of message `counter` (little-endian, zero-padded): each direction has its
/// own key, fresh every round, so a counter never repeats under one key.
std::array<std::uint8_t, crypto_aead_chacha20poly1305_ietf_NPUBBYTES> nonce_of(std::uint64_t counter) {
  std::array<std::uint8_t, crypto_aead_chacha20poly1305_ietf_NPUBBYTES> nonce{};
  for (int i = 0; i < 8; ++i) nonce[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(counter >> (8 * i));
  return nonce;
}

/// ChaCha20-Poly1305 (IETF) under a direction key; the nonce is the message counter.
Bytes seal(const Key& key, std::uint64_t counter, const Bytes& plain) {
  const auto nonce = nonce_of(counter);
  Bytes out(plain.size() + crypto_aead_chacha20poly1305_ietf_ABYTES);
  unsigned long long length = 0;
  crypto_aead_chacha20poly1305_ietf_encrypt(out.data(), &length, plain.data(), plain.size(), nullptr, 0, nullptr,
                                            nonce.data(), key.data());
  out.resize(length);
  return out;
}

Bytes open(const Key& key, std::uint64_t counter, const Bytes& sealed) {
  const auto nonce = nonce_of(counter);
  if (sealed.size() < crypto_aead_chacha20poly1305_ietf_ABYTES)
    throw std::runtime_error("protocol: a message shorter than its tag");
  Bytes out(sealed.size() - crypto_aead_chacha20poly1305_ietf_ABYTES);
  unsigned long long length = 0;
  if (crypto_aead_chacha20poly1305_ietf_decrypt(out.data(), &length, nullptr, sealed.data(), sealed.size(), nullptr,
                                                0, nonce.data(), key.data()) != 0)
    throw std::runtime_error("protocol: a message failed authentication");
  out.resize(length);
  return out;
}

/// One client's end of a pair: its key pair and, once the partner's key arrived, the direction
/// keys (to the partner, from the partner) and the key Z is derived from.
struct Endpoint {
  std::size_t id = 0;
  std::uint8_t pk[crypto_kx_PUBLICKEYBYTES], sk[crypto_kx_SECRETKEYBYTES];
  Key to_partner{}, from_partner{}, z_master{};

  void agree(const Bytes& partner_pk, std::size_t partner) {
    if (partner_pk.size() != crypto_kx_PUBLICKEYBYTES) throw std::runtime_error("protocol: a malformed public key");
    // crypto_kx's "client" is the smaller index; its tx key is the partner's rx key.
    const int status = id < partner ? crypto_kx_client_session_keys(from_partner.data(), to_partner.data(), pk, sk,
                                                                    partner_pk.data())
                                    : crypto_kx_server_session_keys(from_partner.data(), to_partner.data(), pk, sk,
                                                                    partner_pk.data());
    if (status != 0) throw std::runtime_error("protocol: the partner's public key was rejected");
    // Z's master key: keyed BLAKE2b of a fixed label under the smaller index's direction key,
    // which both ends hold.
    const Key& shared = id < partner ? to_partner : from_partner;
    static constexpr char kLabel[] = "corbin: shared vector Z";
    crypto_generichash(z_master.data(), z_master.size(), reinterpret_cast<const std::uint8_t*>(kLabel),
                       sizeof kLabel - 1, shared.data(), shared.size());
  }
  ~Endpoint() { sodium_memzero(sk, sizeof sk); }
};

}  // namespace

ZTransport parse_z_transport(const std::string& text) {
  if (text == "encrypted") return ZTransport::encrypted;
  if (text == "derived") return ZTransport::derived;
  throw invalid_argument("z_transport", quote(text), "encrypted or derived");
}

const char* to_string(ZTransport t) { return t == ZTransport::encrypted ? "encrypted" : "derived"; }

Entropy parse_entropy(const std::string& text) {
  if (text == "seeded") return Entropy::seeded;
  if (text == "os") return Entropy::os;
  throw invalid_argument("entropy", quote(text), "seeded or os");
}

const char* to_string(Entropy e) { return e == Entropy::seeded ? "seeded" : "os"; }

Relay::Relay(std::size_t clients) : traffic_(clients) {}

void Relay::send(std::size_t from, std::size_t to, Purpose purpose, Bytes bytes) {
  Traffic &sender = traffic_.at(from), &receiver = traffic_.at(to);
  const std::uint64_t size = bytes.size();
  switch (purpose) {
    case Purpose::key: sender.key_up += size, receiver.key_down += size; break;
    case Purpose::election: sender.election_up += size, receiver.election_down += size; break;
    case Purpose::z: sender.z_up += size, receiver.z_down += size; break;
  }
  if (in_transit) in_transit(purpose, bytes);
  queues_[{from, to}].push_back(std::move(bytes));
}

Bytes Relay::receive(std::size_t to, std::size_t from) {
  auto& queue = queues_[{from, to}];
  if (queue.empty()) throw std::logic_error("relay: no message from " + std::to_string(from));
  Bytes out = std::move(queue.front());
  queue.pop_front();
  return out;
}

Key client_secret(const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round, std::size_t client,
                  const std::string& purpose) {
  Key key;
  if (config.entropy == Entropy::os) {
    ensure_sodium();
    randombytes_buf(key.data(), key.size());
  } else {
    key = derive_key(seed, "round " + std::to_string(round) + " client " + std::to_string(client) + " " + purpose);
  }
  return key;
}

std::vector<PairChannel> establish_pairs(const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                         const std::vector<Layer>& layers, unsigned bits,
                                         const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round,
                                         Relay& relay) {
  return establish_pairs(pairs, layers, bits, config, seed, round, relay, [](std::size_t) { return true; });
}

std::vector<PairChannel> establish_pairs(const std::vector<std::pair<std::size_t, std::size_t>>& pairs,
                                         const std::vector<Layer>& layers, unsigned bits,
                                         const ProtocolConfig& config, std::uint64_t seed, std::uint64_t round,
                                         MessageBus& bus, const std::function<bool(std::size_t)>& holds) {
  ensure_sodium();
  // Each held end of each pair: its endpoint, its election bit and, once elected, its view.
  struct End {
    std::size_t pair;
    std::size_t partner;
    Endpoint endpoint;
    std::uint8_t y = 0;
    std::size_t leader = 0;
  };
  std::vector<std::unique_ptr<End>> ends;
  for (std::size_t p = 0; p < pairs.size(); ++p) {
    const auto [i, j] = pairs[p];
    for (const auto& [self, partner] : {std::pair{i, j}, std::pair{j, i}}) {
      if (!holds(self)) continue;
      auto e = std::make_unique<End>();
      e->pair = p;
      e->partner = partner;
      e->endpoint.id = self;
      ends.push_back(std::move(e));
    }
  }
  // 1. Public keys through the server.
  for (auto& e : ends) {
    const Key seed_bytes = client_secret(config, seed, round, e->endpoint.id, "x25519");
    crypto_kx_seed_keypair(e->endpoint.pk, e->endpoint.sk, seed_bytes.data());
    bus.send(e->endpoint.id, e->partner, MessageBus::Purpose::key,
             Bytes(e->endpoint.pk, e->endpoint.pk + sizeof e->endpoint.pk));
  }
  bus.deliver();
  // 2. Election: a fair private bit each, sealed (message 0 of each direction).
  for (auto& e : ends) {
    e->endpoint.agree(bus.receive(e->endpoint.id, e->partner), e->partner);
    e->y = static_cast<std::uint8_t>(client_secret(config, seed, round, e->endpoint.id, "election")[0] & 1);
    bus.send(e->endpoint.id, e->partner, MessageBus::Purpose::election, seal(e->endpoint.to_partner, 0, {e->y}));
  }
  bus.deliver();
  // Each end decides from what it holds: equal bits make the smaller index the leader.
  std::vector<std::optional<PairChannel>> channels(pairs.size());
  std::vector<Bytes> plain_z(ends.size());
  for (std::size_t k = 0; k < ends.size(); ++k) {
    End& e = *ends[k];
    const std::uint8_t y_partner = open(e.endpoint.from_partner, 0, bus.receive(e.endpoint.id, e.partner)).at(0);
    const std::size_t self = e.endpoint.id;
    e.leader = e.y == y_partner ? std::min(self, e.partner) : std::max(self, e.partner);
    std::optional<PairChannel>& channel = channels[e.pair];
    if (channel && channel->leader != e.leader) throw std::logic_error("protocol: the election disagreed");
    if (!channel) {
      channel.emplace();
      channel->leader = e.leader;
      channel->follower = e.leader == self ? e.partner : self;
    }
    // 3. Z.
    if (config.transport == ZTransport::derived) {
      if (channel->z_key != Key{} && channel->z_key != e.endpoint.z_master)
        throw std::logic_error("protocol: the derived keys disagreed");
      channel->z_key = e.endpoint.z_master;
    } else if (bits > 0 && e.leader == self) {
      // The leader draws Z from its own secret and sends every layer's packed Z in one sealed
      // message (message 1 of its direction).
      const Key z_source = client_secret(config, seed, round, self, "shared vector Z");
      std::size_t total = 0;
      for (const Layer& layer : layers) total += CorbinqPairSampler::packed_z_bytes(layer.size, bits);
      Bytes& plain = plain_z[k];
      plain.resize(total);
      std::size_t offset = 0;
      for (std::size_t l = 0; l < layers.size(); ++l) {
        CorbinqPairSampler::packed_z(z_source, static_cast<std::uint32_t>(l), bits, plain.data() + offset,
                                     layers[l].size);
        offset += CorbinqPairSampler::packed_z_bytes(layers[l].size, bits);
      }
      bus.send(self, e.partner, MessageBus::Purpose::z, seal(e.endpoint.to_partner, 1, plain));
    }
  }
  bus.deliver();
  if (config.transport == ZTransport::encrypted) {
    for (std::size_t k = 0; k < ends.size(); ++k) {
      End& e = *ends[k];
      PairChannel& channel = *channels[e.pair];
      if (!channel.z.empty()) continue;  // both ends held here: the follower's copy is kept
      Bytes z;
      if (bits == 0) {
        channel.z.assign(layers.size(), Bytes{});  // d = 0: there is no Z to send
        continue;
      }
      if (e.leader == e.endpoint.id) {
        // The leader's own Z; replaced by what the follower decrypts when it is held here too.
        const bool follower_here = holds(channel.follower);
        if (follower_here) continue;
        z = plain_z[k];
      } else {
        z = open(e.endpoint.from_partner, 1, bus.receive(e.endpoint.id, e.partner));
      }
      std::size_t offset = 0;
      for (const Layer& layer : layers) {
        const std::size_t size = CorbinqPairSampler::packed_z_bytes(layer.size, bits);
        channel.z.emplace_back(z.begin() + static_cast<std::ptrdiff_t>(offset),
                               z.begin() + static_cast<std::ptrdiff_t>(offset + size));
        offset += size;
      }
      sodium_memzero(z.data(), z.size());
    }
  }
  for (Bytes& plain : plain_z) sodium_memzero(plain.data(), plain.size());
  std::vector<PairChannel> out;
  for (auto& channel : channels)
    if (channel) out.push_back(std::move(*channel));
  return out;
}

}  // namespace corbin::fl
