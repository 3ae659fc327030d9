package io.jxds.client.internal.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which request a state-of-the-world response answers, for a server that ignores requests with a
 * stale {@code response_nonce} and answers a change of subscription, never a bare ACK (the xDS
 * protocol's rules, and what java-control-plane does).
 */
class AnsweredRequestTest {
  private static final List<String> SEED = List.of("seed");
  private static final List<String> TWO = List.of("c0", "seed");
  private static final List<String> THREE = List.of("c0", "c1", "seed");
  private static final List<String> FOUR = List.of("c0", "c1", "c2", "seed");

  @Test
  void theStreamsFirstResponseAnswersItsFirstRequest() {
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.sent(2, TWO); // carries no nonce either: stale once the first response leaves
    assertThat(answered.responded("1")).isEqualTo(1);
  }

  @Test
  void aBareAckIsNotAnsweredTheNextChangeIs() {
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.responded("1");
    answered.sent(1, SEED); // the ACK: the server keeps quiet
    answered.sent(2, TWO);
    answered.sent(3, THREE); // stale once the answer to the previous one leaves
    assertThat(answered.responded("1")).isEqualTo(2);
  }

  @Test
  void anAckListingNamesTheAnswerLackedIsItselfAChangeAndIsAnswered() {
    // Requests that added c0, c1 and c2 crossed the response to the first: the server ignored
    // them (stale nonce) and answered only "seed". The ACK that follows lists all four names, so
    // the server answers it, and ignores the request after it, which carries the same nonce.
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.sent(2, TWO);
    answered.sent(3, THREE);
    assertThat(answered.responded("1")).isEqualTo(1);
    answered.sent(3, THREE); // the ACK: three names, the answer had one
    answered.sent(4, FOUR); // adds c2, but the server answers the ACK first and drops this one
    assertThat(answered.responded("1")).isEqualTo(3);
  }

  @Test
  void aNewVersionMayBeAPushThatAnswersNothing() {
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.responded("1");
    answered.sent(2, TWO);
    assertThat(answered.responded("2")).isEqualTo(-1);
  }

  @Test
  void afterAPushTheFirstRequestCarryingItsNonceIsTheOnlySafeGuess() {
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.responded("1");
    answered.responded("2"); // a push: what the server thinks the client watches is unknown
    answered.sent(1, SEED); // its ACK
    answered.sent(2, TWO);
    assertThat(answered.responded("2")).isEqualTo(1);
  }

  @Test
  void aResponseWithNoRequestSinceTheLastAnswersNothing() {
    AnsweredRequest answered = new AnsweredRequest();
    answered.sent(1, SEED);
    answered.responded("1");
    assertThat(answered.responded("1")).isEqualTo(-1);
  }
}
