"use client";
export { SlaError as default } from "../../../../../../features/sla/sla-error";
