package io.catalogviews.api.routing;

import io.catalogviews.api.http.ApiException;
import io.catalogviews.views.query.QueryFailure;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReadFailuresTest {

    private static ForwardedResponse refusedWith(Map<String, List<String>> headers) {
        return new ForwardedResponse(503, headers, new byte[0]);
    }

    private static int passedOn(String retryAfter) {
        return ReadFailures.fromPeer(refusedWith(Map.of("Retry-After", List.of(retryAfter))), "test view")
                .retryAfterSeconds();
    }

    @Test
    void shouldAnswerUnavailableWithRetryAfterWhenALocalReadMustBeRetriedOrTheDataMovedOnAPublicRoute() {
        for (QueryFailure failure : List.of(QueryFailure.retryLater("task 0_3 of product-view at host-7 restores"),
                QueryFailure.notHostedHere("task 0_3 of product-view left host-7"))) {
            ApiException e = ReadFailures.refusal(failure, "product view");
            assertThat(e.status()).as(failure.kind().name()).isEqualTo(503);
            assertThat(e.code()).isEqualTo("unavailable");
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
            assertThat(e.getMessage()).contains("product view").doesNotContain(failure.message());
        }
    }

    @Test
    void shouldAnswerNotHostedOnInternalRoutesWhenThePartitionMovedAndUnavailableWhenItMustBeRetried() {
        ApiException moved = ReadFailures.internalRefusal(QueryFailure.notHostedHere("moved"), "catalog listing");
        assertThat(moved.status()).isEqualTo(421);
        assertThat(moved.code()).isEqualTo("not_hosted");

        ApiException restoring = ReadFailures.internalRefusal(QueryFailure.retryLater("restoring"), "catalog listing");
        assertThat(restoring.status()).isEqualTo(503);
        assertThat(restoring.retryAfterSeconds()).isEqualTo(1);
    }

    @Test
    void shouldClampAPeersRetryAfterToOneMinuteAtMostAndOneSecondAtLeastWhenPassingItOn() {
        assertThat(passedOn("3")).isEqualTo(3);
        assertThat(passedOn(" 7 ")).isEqualTo(7);
        assertThat(passedOn("120")).isEqualTo(60);
        assertThat(passedOn("0")).isEqualTo(1);
        assertThat(passedOn("-5")).isEqualTo(1);
        assertThat(passedOn("soon")).as("an HTTP date or garbage").isEqualTo(1);
        assertThat(ReadFailures.fromPeer(refusedWith(Map.of()), "test view").retryAfterSeconds()).isEqualTo(1);
        assertThat(ReadFailures.fromPeer(refusedWith(Map.of()), "test view").status()).isEqualTo(503);
    }

    @Test
    void shouldAnswerOwnerTimeoutWhenAPeerMissesTheDeadlineAndUnavailableWhenItCannotBeReached() {
        assertThat(ReadFailures.peerTimeout().status()).isEqualTo(504);
        assertThat(ReadFailures.peerTimeout().code()).isEqualTo("owner_timeout");
        assertThat(ReadFailures.peerUnreachable().status()).isEqualTo(503);
        assertThat(ReadFailures.peerUnreachable().retryAfterSeconds()).isEqualTo(1);
    }

    @Test
    void shouldAnswerNotFoundNamingWhatIsAbsentWhenTheDataDoesNotExist() {
        ApiException e = ReadFailures.notFound("product 'p-1'");
        assertThat(e.status()).isEqualTo(404);
        assertThat(e.code()).isEqualTo("not_found");
        assertThat(e.getMessage()).isEqualTo("product 'p-1' does not exist");
    }

    @Test
    void shouldAnswerUnavailableWithoutRetryingForeverWhenNoOwnerOrNoTimeIsLeft() {
        for (ApiException e : List.of(ReadFailures.noOwner("product view", 3), ReadFailures.outOfTime("catalog"),
                ReadFailures.movedWhileReading("catalog"), ReadFailures.tooFarBehind(),
                ReadFailures.malformedPeerAnswer("catalog"))) {
            assertThat(e.status()).as(e.getMessage()).isEqualTo(503);
            assertThat(e.retryAfterSeconds()).isEqualTo(1);
        }
        assertThat(ReadFailures.noOwner("product view", 3).getMessage()).contains("partition 3 of the product view");
    }
}
