package io.catalogviews.views.listing;

import static org.assertj.core.api.Assertions.assertThat;

import io.catalogviews.views.index.SortOrder;
import io.catalogviews.views.query.QueryFailure;
import io.catalogviews.views.listing.internals.PageCache;
import io.catalogviews.views.listing.internals.FacetCache;
import io.catalogviews.views.streams.ActiveStoreHandles;
import io.catalogviews.views.streams.StreamsListingQueries;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Kafka Streams adapter answers when the stores cannot be read at all; reads are covered by the engine. */
class StreamsListingQueriesTest {

    private static final ListingFilter PHONES = new ListingFilter("phones", List.of(), null, null, null);
    private static final ListingFilter ALL = new ListingFilter(null, List.of(), null, null, null);

    private static KafkaStreams streams(Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.stream("in").to("out");
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "listing-queries-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:1");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        return new KafkaStreams(builder.build(), props);
    }

    private static void assertEveryQueryFails(StreamsListingQueries queries) {
        List<ListingResult<?>> results = List.of(
                queries.catalogPage(new ListingQuery(PHONES, SortOrder.PRICE, 20, null), Set.of(0, 1)),
                queries.catalogFacets(PHONES, Set.of(0, 1)),
                queries.catalogPage(new ListingQuery(ALL, SortOrder.PRICE, 20, null), Set.of(0, 1)),
                queries.catalogFacets(ALL, Set.of(0, 1)),
                queries.categories(Set.of(0, 1)));
        for (ListingResult<?> result : results) {
            assertThat(result).isInstanceOfSatisfying(ListingResult.Failed.class, failed ->
                    assertThat(failed.failure().kind()).isEqualTo(QueryFailure.Kind.RETRY_LATER));
        }
        assertThat(queries.keptCategoryPage(new ListingQuery(PHONES, SortOrder.PRICE, 20, null)))
                .as("a kept page while no partition is active here").isNull();
    }

    @Test
    void shouldAnswerRetryLaterWhenStreamsIsNotStartedOrAlreadyClosed(@TempDir Path stateDir) {
        KafkaStreams streams = streams(stateDir);
        try {
            StreamsListingQueries queries = new StreamsListingQueries(streams, 2);

            assertEveryQueryFails(queries);
            streams.close(Duration.ofSeconds(5));
            assertEveryQueryFails(queries);
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldAnswerRetryLaterWhenStreamsIsNotRunningAndHandlesAreKeptBetweenRequests(@TempDir Path stateDir) {
        KafkaStreams streams = streams(stateDir);
        try {
            ActiveStoreHandles handles = new ActiveStoreHandles(streams);
            StreamsListingQueries queries = new StreamsListingQueries(streams, 2, 10_000,
                    new FacetCache(2, 1_000), new PageCache(null, 1_000_000), new PageCache(null, 1_000_000), handles);

            assertEveryQueryFails(queries);
            handles.invalidate();
            streams.close(Duration.ofSeconds(5));
            assertEveryQueryFails(queries);
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldServeNoKeptFacetsWhenTheirPartitionsAreNotActiveHere(@TempDir Path stateDir) {
        KafkaStreams streams = streams(stateDir);
        try {
            FacetCache facets = new FacetCache(2, 1_000);
            FacetCounts counted = new FacetCounts(3, 1, Map.of("acme", 3L), 100L, 300L);
            facets.keep(PHONES, Set.of(0, 1), facets.stamp(), counted);
            StreamsListingQueries queries = new StreamsListingQueries(streams, 2, 10_000, facets, null, null,
                    new ActiveStoreHandles(streams));

            assertThat(facets.get(PHONES, Set.of(0, 1))).as("the facets kept").isSameAs(counted);
            assertThat(queries.keptCategoryFacets(PHONES)).as("kept facets of partitions not active here").isNull();
            assertThat(queries.keptCategoryFacets(ALL)).as("the whole catalog is never kept here").isNull();
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }

    @Test
    void shouldAnswerAnEmptyResultWhenNoPartitionIsAsked(@TempDir Path stateDir) {
        KafkaStreams streams = streams(stateDir);
        try {
            StreamsListingQueries queries = new StreamsListingQueries(streams, 2);

            assertThat(queries.catalogPage(new ListingQuery(ALL, SortOrder.PRICE, 20, null), Set.of()))
                    .isEqualTo(new ListingResult.Ok<>(new ListingPage(List.of(), false)));
            assertThat(queries.catalogFacets(ALL, Set.of())).isEqualTo(new ListingResult.Ok<>(FacetCounts.EMPTY));
            assertThat(queries.categories(Set.of())).isEqualTo(new ListingResult.Ok<>(List.of()));
        } finally {
            streams.close(Duration.ofSeconds(5));
        }
    }
}
