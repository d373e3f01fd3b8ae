// Server lists (issue 27 item 3): how `--server a,b` becomes one gRPC target that pick_first walks in order.
#include "common/grpc_channel.h"

#include <gtest/gtest.h>

namespace hipforge {
namespace {

TEST(ServerList, SplitsOnCommasAndDropsBlanks) {
  EXPECT_EQ(SplitServerList("a:1, b:2,,"), (std::vector<std::string>{"a:1", "b:2"}));
  EXPECT_EQ(SplitServerList("a:1"), (std::vector<std::string>{"a:1"}));
  EXPECT_TRUE(SplitServerList(" , ").empty());
}

TEST(ServerList, OneAddressIsLeftToGrpcsOwnResolver) {
  EXPECT_EQ(*ChannelTarget("localhost:50051"), "localhost:50051");
  EXPECT_EQ(*ChannelTarget("dns:///svc.example:50051"), "dns:///svc.example:50051");
}

TEST(ServerList, SeveralAddressesBecomeOneTargetInTheOrderGiven) {
  EXPECT_EQ(*ChannelTarget("127.0.0.2:2,127.0.0.1:1"), "ipv4:127.0.0.2:2,127.0.0.1:1");
  EXPECT_EQ(*ChannelTarget("[::1]:1,[::1]:2"), "ipv6:[::1]:1,[::1]:2");
  // localhost has both families: the IPv4 list, where 127.0.0.1 comes first.
  absl::StatusOr<std::string> named = ChannelTarget("localhost:1,127.0.0.1:2");
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ(named->rfind("ipv4:127.0.0.1:1,", 0), 0u) << *named;
  EXPECT_NE(named->find("127.0.0.1:2"), std::string::npos) << *named;
}

TEST(ServerList, MalformedEntriesAndMixedFamiliesAreRefused) {
  for (const char* list : {"a:1,b", "a:1,b:port", "a:1,dns:///b:2", "a:1,[::1]", "a:1,:2"}) {
    absl::StatusOr<std::string> target = ChannelTarget(list);
    EXPECT_EQ(target.status().code(), absl::StatusCode::kInvalidArgument) << list;
  }
  EXPECT_EQ(ChannelTarget("[::1]:1,127.0.0.1:2").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(MakeChannel("127.0.0.1:1,nonsense", ChannelSecurity{}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace hipforge
