// The use svcpp.hpp recommends, with nothing included but svcpp.hpp (the header brings every standard facility it
// needs, <memory> included): a shared client that its callbacks capture weakly, pumped once per frame.
#include "svcpp.hpp"

void StartClient(std::shared_ptr<svcpp::Client> const &client) {
    std::weak_ptr<svcpp::Client> weak = client;
    client->SetStatusChangedCallback([weak](svcpp::Client::Status status, svcpp::Client::Error, int32_t) {
        if (auto c = weak.lock(); c && status == svcpp::Client::Status::Ready) c->GetCurrentUserV2();
    });
}

int main() {
    auto client = std::make_shared<svcpp::Client>();
    StartClient(client);
    return svcpp::RunCallbacks() ? 0 : 1;
}
