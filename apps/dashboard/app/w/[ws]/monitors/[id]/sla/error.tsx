"use client";
export { SlaError as default } from "../../../../../../components/sla-error";
