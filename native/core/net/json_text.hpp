// Parsing JSON text received from the network.
//
// JSON (RFC 8259 §8.2) lets a string escape a lone UTF-16 surrogate ("\ud800"): the text is valid JSON, but the
// value is not Unicode, and the parser (net/json_reader.hpp) refuses the whole document. One such string inside a READY
// or a lobby message must not cost the whole frame, so lone surrogate escapes are read as U+FFFD (the replacement
// character), as a browser's JSON.parse + TextEncoder would, and everything else in the frame survives.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace svcpp::core::net {

/** The text with every lone surrogate escape replaced by \ufffd (a no-op copy when there is none). */
std::string ReplaceLoneSurrogateEscapes(std::string_view text);

/**
 * The text itself when it holds no surrogate escape (most network JSON: no copy), else the replaced text, written
 * into `storage` (whose buffer is reused). The view is valid while `text` and `storage` are.
 */
std::string_view WithLoneSurrogatesReplaced(std::string_view text, std::string &storage);

/**
 * Parses network JSON, reading lone surrogate escapes as U+FFFD; a discarded value when the text is not JSON (or
 * passes one of JsonReader's limits: net/json_reader.hpp).
 */
nlohmann::json ParseJson(std::string_view text);

}  // namespace svcpp::core::net
