// OpenInBrowser on POSIX systems (auth/browser.hpp; Windows: auth/browser_windows.cpp).
#include "auth/browser.hpp"

#include <spawn.h>
#include <sys/wait.h>

extern char **environ;

namespace svcpp::core::auth {

bool OpenInBrowser(const std::string &url) {
#if defined(__APPLE__)
    const char *script = "open \"$1\" >/dev/null 2>&1 &";
#else
    const char *script = "xdg-open \"$1\" >/dev/null 2>&1 &";
#endif
    // The shell backgrounds the opener and exits at once, so the opener is re-parented to init and never
    // becomes a zombie of the host process; the URL travels as an argument, never through the shell's parser.
    char *argv[] = {const_cast<char *>("sh"), const_cast<char *>("-c"),        const_cast<char *>(script),
                    const_cast<char *>("sh"), const_cast<char *>(url.c_str()), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ) != 0) return false;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return false;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace svcpp::core::auth
