#pragma once
// The parameter a call's invalid_argument names, or "accepted" when it raises none: the tests'
// way to check that bad input is refused by the right name.

#include <functional>
#include <string>

#include "corbin/number/error.hpp"

inline std::string parameter_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const corbin::invalid_argument& e) {
    return e.parameter();
  }
  return "accepted";
}
