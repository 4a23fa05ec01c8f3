// Every header declaring the hand-written methods of value types (free functions core::Method(const T &, …));
// the generated C marshalling includes this one header.
#pragma once
#include "values/additional_content.hpp"
#include "values/client_result.hpp"
