#include "thread_census.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace svcpp::test {

namespace {

/** Calls `visit(task directory)` for each thread of this process named `name`, as /proc/self/task/<tid>/comm says. */
template <typename Visit>
void ForEachThreadNamed(const std::string &name, Visit visit) {
    for (const auto &task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string threadName;
        if (std::getline(comm, threadName) && threadName == name) visit(task.path());
    }
}

}  // namespace

int CountThreadsNamed(const std::string &name) {
    int count = 0;
    ForEachThreadNamed(name, [&count](const std::filesystem::path &) { ++count; });
    return count;
}

std::vector<int> ThreadNicesNamed(const std::string &name) {
    std::vector<int> nices;
    ForEachThreadNamed(name, [&nices](const std::filesystem::path &task) {
        std::ifstream statFile(task / "stat");
        std::string stat((std::istreambuf_iterator<char>(statFile)), std::istreambuf_iterator<char>());
        std::istringstream fields(stat.substr(stat.rfind(')') + 2));
        std::string field;
        for (int i = 0; i <= 16 && fields >> field; ++i) {}
        nices.push_back(std::stoi(field));  // the 19th field of stat, the 17th after "(comm) "
    });
    return nices;
}

bool ThreadNicesAreReadable() { return true; }

}  // namespace svcpp::test
