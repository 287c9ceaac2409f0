#!/usr/bin/env bash
skip "todo"
