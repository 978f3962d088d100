package io.catalogviews.views.routing;

/** Reads the deployment's membership, assignments and lags from Kafka Streams; never calls other instances. */
public interface ClusterView {

    ClusterState state();
}
