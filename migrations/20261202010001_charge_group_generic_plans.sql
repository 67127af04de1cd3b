-- charge_group keeps one plan per statement for the life of its connection (issue 21).
--
-- Its statements take the group's arrays as parameters, so PL/pgSQL's plan cache planned each of
-- them again on every call (a custom plan, whose estimate beat the generic one): a tenth of a
-- one-call group's time went to the planner (perf, `pg_plan_query`), on the path every metered
-- call waits on twice. The function already prices out sequential scans and hash and merge joins,
-- so the generic plan is the index-lookup plan a custom one would have chosen; it is made once.
-- Measured with pgbench on one charge and its settlement, one call per group, alternating
-- databases: 3.2 to 3.8 ms per pair of groups before, 2.7 to 2.8 ms after.
ALTER FUNCTION charge_group(bool[], bigint[], bigint[], bigint[], text[], text[], text[], bigint[],
                            bigint[], bigint[], bigint[], text[], bigint[], bigint[], bool[], int[],
                            bool[], text[], text[], text[], int[], bool[], bytea[], bool)
    SET plan_cache_mode = force_generic_plan;
