package io.jxds.api.internal.decode;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AddressSetTest {
  @Test
  @Timeout(value = 10, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void moreAddressesThanEstimatedAreStillAllCheckedForRepeats() {
    AddressSet set = new AddressSet(1);
    IpLiteral.Parser ips = new IpLiteral.Parser();
    for (int k = 0; k < 1000; k++) {
      assertThat(set.add(address(ips, k), ips.lastHash())).as("first time %s", k).isTrue();
    }
    for (int k = 0; k < 1000; k++) {
      assertThat(set.add(address(ips, k), ips.lastHash())).as("again %s", k).isFalse();
    }
  }

  private static InetSocketAddress address(IpLiteral.Parser ips, int k) {
    return new InetSocketAddress(ips.parse("10.0." + (k / 250) + "." + (k % 250 + 1)), 80);
  }
}
