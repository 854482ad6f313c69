#include "corbin/utility/aggregate.hpp"

#include <sstream>

namespace corbin {

Pairing consecutive_pairing(std::size_t n) {
  Pairing p;
  for (std::size_t i = 0; i + 1 < n; i += 2) p.emplace_back(i, i + 1);
  return p;
}

Pairing parse_pairing(const std::string& text) {
  Pairing p;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto dash = item.find('-');
    std::size_t used_a = 0, used_b = 0;
    try {
      if (dash == std::string::npos) throw std::invalid_argument("no dash");
      const std::string a = item.substr(0, dash), b = item.substr(dash + 1);
      const unsigned long i = std::stoul(a, &used_a), j = std::stoul(b, &used_b);
      if (used_a != a.size() || used_b != b.size() || a.empty() || b.empty() || a[0] == '-' ||
          b[0] == '-')
        throw std::invalid_argument("trailing");
      p.emplace_back(i, j);
    } catch (const std::exception&) {
      throw invalid_argument("pairing", quote(text),
                             "a comma-separated list of leader-follower index pairs, e.g. 0-1,2-3");
    }
  }
  return p;
}

void check_pairing(const Pairing& pairing, std::size_t n) {
  std::vector<bool> seen(n, false);
  for (const auto& [i, j] : pairing) {
    for (std::size_t k : {i, j}) {
      if (k >= n)
        throw invalid_argument("pairing", std::to_string(k),
                               "a client index below n = " + std::to_string(n));
      if (seen[k])
        throw invalid_argument("pairing", std::to_string(k), "used in at most one pair");
      seen[k] = true;
    }
  }
}

}  // namespace corbin
