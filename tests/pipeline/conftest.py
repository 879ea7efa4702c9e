"""Shared Spark fixtures for the pipeline tests.

Starting Spark costs 5-50 s, so one SparkSession on ``local[2]`` serves every test module that
asks for ``spark`` (``session()`` returns the active session when its master matches); the
cluster test switches master, and the next module that needs ``local[2]`` starts it again. The
last session is stopped when the test run ends.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

TEST_MASTER = "local[2]"
# PySpark 4.3 warns about pandas 3 on every conversion (it works; the warning is not ours)
SPARK_WARNINGS = (
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    "ignore:The copy keyword is deprecated:DeprecationWarning",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Silence PySpark's pandas-3 warnings in the tests that use Spark."""
    for item in items:
        if {"spark", "cluster"} & set(getattr(item, "fixturenames", ())):
            for spec in SPARK_WARNINGS:
                item.add_marker(pytest.mark.filterwarnings(spec))


TEST_CONF = {"spark.sql.shuffle.partitions": "4", "spark.default.parallelism": "2"}


@pytest.fixture(scope="session")
def _stop_spark_at_end() -> Iterator[None]:
    yield
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()


@pytest.fixture(scope="module")
def spark(_stop_spark_at_end: None) -> SparkSession:
    """The shared local SparkSession (module-scoped: a module may have switched master)."""
    from mqlearn.pipeline.spark import session

    return session(TEST_MASTER, conf=TEST_CONF)
