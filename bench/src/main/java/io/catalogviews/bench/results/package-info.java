/**
 * What one benchmark run measured, as typed values: each phase returns one of these records and
 * {@link io.catalogviews.bench.results.BenchResults} gathers them into {@code results.json}. The JSON names are
 * the record components' names (in declaration order, absent values left out unless a component says otherwise),
 * and they are the keys of every earlier run's {@code results.json}: add components freely, never rename one, or
 * old runs stop comparing with new ones ({@code ReportFormatTest} holds recorded runs).
 */
package io.catalogviews.bench.results;
