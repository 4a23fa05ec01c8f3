// Svcpp_Properties (native/SEMANTICS.md "Maps") between C and core::Properties: validated borrowed inputs,
// library-owned sorted outputs (released by Svcpp_FreeProperties) and borrowed views for callback arguments.
#pragma once
#include <cstddef>
#include <vector>

#include "svcpp.h"
#include "values/properties.hpp"

namespace svcpp::capi {

/** Limits of a map input, from the IDL options maxKeys / maxKey / maxValue (0 = no limit; lengths in code points). */
struct MapLimits {
    size_t maxKeys = 0;
    size_t maxKey = 0;
    size_t maxValue = 0;
};

/**
 * Copies a borrowed map input. NullArgument for NULL keys or values with size > 0 (and for {NULL, n > 0} strings),
 * InvalidUtf8 for a malformed key or value, InvalidArgument for a duplicate key or a limit exceeded.
 */
core::Properties InProperties(Svcpp_Properties props, const char *what, MapLimits limits);

/**
 * Writes a library-allocated copy to *out, sorted by key bytes (the order of core::Properties): two arrays of
 * NUL-terminated strings, released with Svcpp_FreeProperties. An empty map is {0, NULL, NULL}. Nothing is written
 * when it fails.
 */
void OutProperties(const core::Properties &value, Svcpp_Properties *out, const char *what);

/** Frees what OutProperties allocated (Svcpp_FreeProperties). Tolerates NULL arrays and NULL strings. */
void ReleaseProperties(Svcpp_Properties props) noexcept;

/** A map handed to a callback: views of the core map's strings, valid while both live (borrowed, sorted). */
class BorrowedProperties {
  public:
    explicit BorrowedProperties(const core::Properties &value);
    BorrowedProperties(const BorrowedProperties &) = delete;
    BorrowedProperties &operator=(const BorrowedProperties &) = delete;

    /** The C view; an empty map is {0, NULL, NULL}. */
    Svcpp_Properties View();

  private:
    std::vector<Svcpp_String> keys_;
    std::vector<Svcpp_String> values_;
};

}  // namespace svcpp::capi
