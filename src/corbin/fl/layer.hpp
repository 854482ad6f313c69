#pragma once
// A layer of the flat parameter vector: the mechanism's c and r, and Z's streams, are per layer.

#include <cstddef>

namespace corbin::fl {

struct Layer {
  std::size_t offset = 0, size = 0;
};

}  // namespace corbin::fl
