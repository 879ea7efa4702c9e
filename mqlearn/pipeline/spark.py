"""The pipeline's SparkSession, and the type mapping between pandas dtypes, Spark and Arrow.

Embedded by default: ``local[*]`` with the running interpreter as the workers' Python, the web UI
off and quiet logs. ``master`` accepts any Spark master URL (``spark://host:port`` for a standalone
cluster). One JVM holds one SparkContext, so asking for another master stops the active session.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd
import pyarrow as pa

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[*]"
# log4j2.properties with the root logger at ERROR: Spark's own start-up lines stay quiet too
CONF_DIR = Path(__file__).with_name("conf")

BASE_CONF: dict[str, str] = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.sql.execution.arrow.pyspark.fallback.enabled": "false",
}

# pandas dtype (as schema.py declares columns) -> the Spark SQL type and the Arrow type storing it
_TYPES: dict[str, tuple[str, pa.DataType]] = {
    "int64": ("bigint", pa.int64()),
    "Int64": ("bigint", pa.int64()),
    "int32": ("int", pa.int32()),
    "Int32": ("int", pa.int32()),
    "float64": ("double", pa.float64()),
    "bool": ("boolean", pa.bool_()),
    "boolean": ("boolean", pa.bool_()),
    "string": ("string", pa.string()),
}
# Arrow type -> the pandas dtype name a column of it is described with
_PANDAS_NAMES = {
    pa.int64(): "int64",
    pa.int32(): "int32",
    pa.int16(): "int16",
    pa.int8(): "int8",
    pa.float64(): "float64",
    pa.float32(): "float32",
    pa.bool_(): "bool",
    pa.string(): "string",
    pa.large_string(): "string",
    pa.string_view(): "string",
}
# Arrow type -> the pandas dtype that keeps its nulls (no float detour for integers)
_NULLABLE = {
    pa.int64(): pd.Int64Dtype(),
    pa.int32(): pd.Int32Dtype(),
    pa.int16(): pd.Int16Dtype(),
    pa.int8(): pd.Int8Dtype(),
    pa.bool_(): pd.BooleanDtype(),
    pa.string(): pd.StringDtype(),
    pa.large_string(): pd.StringDtype(),
}


def _quiet_pyspark_warnings() -> None:
    """PySpark 4.x warns on every pandas UDF that pandas 3 is 'not yet fully supported'."""
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")


def session(
    master: str | None = None,
    *,
    app_name: str = "mqlearn",
    conf: Mapping[str, str] | None = None,
) -> SparkSession:
    """The active SparkSession if it runs on ``master``, else a new one (the old one stopped).

    ``conf`` adds or overrides settings; JVM settings such as ``spark.driver.memory`` only take
    effect when this call starts the JVM (the first session of the process).
    """
    from pyspark.sql import SparkSession

    master = master or DEFAULT_MASTER
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    os.environ.setdefault("SPARK_CONF_DIR", str(CONF_DIR))
    _quiet_pyspark_warnings()
    active = SparkSession.getActiveSession()
    if active is not None:
        if active.sparkContext.master == master:
            return active
        active.stop()
    builder = SparkSession.builder.master(master).appName(app_name)
    for key, value in {**BASE_CONF, **(conf or {})}.items():
        builder = builder.config(key, value)
    return builder.getOrCreate()


@contextmanager
def spark_session(
    master: str | None = None, *, conf: Mapping[str, str] | None = None
) -> Iterator[SparkSession]:
    """``session(master)`` for the duration of a block; stops it afterwards only if it started it."""
    from pyspark.sql import SparkSession

    before = SparkSession.getActiveSession()
    spark = session(master, conf=conf)
    try:
        yield spark
    finally:
        if spark is not before:
            spark.stop()


def _type(dtype: str) -> tuple[str, pa.DataType]:
    if dtype not in _TYPES:
        raise ValueError(f"no Spark type for pandas dtype {dtype!r}")
    return _TYPES[dtype]


def spark_type_name(dtype: str) -> str:
    """The Spark SQL type name (``bigint``, ``int``, ``string``...) for a pandas dtype."""
    return _type(dtype)[0]


def spark_ddl(columns: Mapping[str, str]) -> str:
    """A ``name -> pandas dtype`` mapping as a Spark DDL schema (``"seq bigint, ..."``)."""
    return ", ".join(f"`{name}` {spark_type_name(dtype)}" for name, dtype in columns.items())


def arrow_schema(columns: Mapping[str, str]) -> pa.Schema:
    """The same schema in Arrow (every field nullable)."""
    return pa.schema([(name, _type(dtype)[1]) for name, dtype in columns.items()])


def _pandas_name(kind: pa.DataType) -> str:
    if pa.types.is_dictionary(kind) and _PANDAS_NAMES.get(kind.value_type) == "string":
        return "category"  # dictionary-encoded text, as pandas reads it
    return _PANDAS_NAMES.get(kind, str(kind))


def pandas_dtypes(schema: pa.Schema) -> dict[str, str]:
    """An Arrow schema described with pandas dtype names, for ``schema.missing_or_mistyped``;
    a type pandas has no plain name for keeps its Arrow name (``timestamp[ms]``, ``list<...>``)."""
    return {field.name: _pandas_name(field.type) for field in schema}


def arrow_to_pandas(table: pa.Table, columns: Mapping[str, str] | None = None) -> pd.DataFrame:
    """An Arrow table as pandas; integers and booleans stay exact and keep their nulls (nullable
    dtypes), text becomes ``string``. With ``columns``: those columns, in the declared dtypes."""
    if columns is not None:
        table = table.select(list(columns))
    frame = table.to_pandas(types_mapper=_NULLABLE.get)
    return frame if columns is None else frame.astype(dict(columns))
