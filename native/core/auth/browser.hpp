// Opens a URL in the user's default browser (the Authorize fallback when the host has no AuthorizeUrl callback).
#pragma once
#include <string>

namespace svcpp::core::auth {

/** Starts the platform's URL opener (xdg-open / open) without waiting for it; false when it cannot be started. */
bool OpenInBrowser(const std::string &url);

}  // namespace svcpp::core::auth
