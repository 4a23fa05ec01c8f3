#include "pulse_daemon.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace {

bool CanConnect(const std::string &socketPath) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    std::strncpy(addr.sun_path, socketPath.c_str(), sizeof addr.sun_path - 1);
    bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

}  // namespace

std::string PulseDaemon::Start() {
    char pattern[] = "/tmp/svcpp-pulse-XXXXXX";
    if (!::mkdtemp(pattern)) return "cannot create a temporary directory";
    dir_ = pattern;
    std::string home = dir_ + "/home", run = dir_ + "/run", socket = dir_ + "/native", log = dir_ + "/daemon.log";
    ::mkdir(home.c_str(), 0700);
    ::mkdir(run.c_str(), 0700);

    std::vector<std::string> args = {"pulseaudio",
                                     "-n",
                                     "--daemonize=no",
                                     "--exit-idle-time=-1",
                                     "--disallow-exit",
                                     "--use-pid-file=no",
                                     "--system=no",
                                     "--log-target=stderr",
                                     "-L",
                                     "module-null-sink sink_name=vsink rate=48000 channels=2",
                                     "-L",
                                     "module-null-source source_name=vsrc rate=48000 channels=2",
                                     "-L",
                                     "module-native-protocol-unix auth-anonymous=1 socket=" + socket};
    pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) return "fork failed";
    if (pid_ == 0) {
        // The daemon dies with the test process, even when that one is killed (a sanitizer halting on an error)
        // and never runs the destructor.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) ::_exit(1);
        ::setenv("HOME", home.c_str(), 1);
        ::setenv("XDG_RUNTIME_DIR", run.c_str(), 1);
        int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
        }
        std::vector<char *> argv;
        for (auto &a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execvp("pulseaudio", argv.data());
        ::_exit(127);
    }
    // Wait for the socket (the daemon starts in well under a second; the bound only turns a hang into a failure).
    for (int i = 0; i < 200; ++i) {
        if (CanConnect(socket)) {
            ::setenv("PULSE_SERVER", ("unix:" + socket).c_str(), 1);
            return "";
        }
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
            pid_ = -1;
            return "pulseaudio exited during start-up: " + Log();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "pulseaudio did not open its socket within 10 s: " + Log();
}

std::string PulseDaemon::Log() const {
    std::ifstream f(dir_ + "/daemon.log");
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

PulseDaemon::~PulseDaemon() {
    if (pid_ > 0) {
        ::kill(pid_, SIGTERM);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    ::unsetenv("PULSE_SERVER");
    if (!dir_.empty()) {
        std::error_code ignored;
        std::filesystem::remove_all(dir_, ignored);
    }
}
