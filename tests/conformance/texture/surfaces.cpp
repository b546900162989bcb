#include "hip_test.hpp"
