package io.catalogviews.views.streams;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RestoreProgressTest {

    private final TopicPartition rows = new TopicPartition("app-category-listings-changelog", 3);
    private final TopicPartition products = new TopicPartition("app-product-view-changelog", 1);

    @Test
    void shouldCountDownTheRecordsLeftWhenBatchesAreRestored() {
        RestoreProgress progress = new RestoreProgress();
        progress.onRestoreStart(rows, "category-listings", 100, 1_100);
        progress.onRestoreStart(products, "product-view", 0, 500);

        progress.onBatchRestored(rows, "category-listings", 400, 300);

        assertThat(progress.remainingRecords()).isEqualTo(700 + 500);
    }

    @Test
    void shouldForgetAPartitionWhenItsRestoreEndsOrIsSuspended() {
        RestoreProgress progress = new RestoreProgress();
        progress.onRestoreStart(rows, "category-listings", 0, 1_000);
        progress.onRestoreStart(products, "product-view", 0, 500);

        progress.onRestoreEnd(rows, "category-listings", 1_000);
        progress.onRestoreSuspended(products, "product-view", 20);

        assertThat(progress.remainingRecords()).isZero();
    }
}
